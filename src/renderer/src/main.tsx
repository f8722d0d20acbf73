// Renderer entry: connects to the core (Electron IPC or the browser host's socket) and
// mounts the app.
import './lib/noEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { NoAccess } from './NoAccess';
import { connectApi } from './api/connect';
import './styles/index.css';

const client = connectApi();
createRoot(document.getElementById('root')!).render(<StrictMode>{client ? <App client={client} /> : <NoAccess />}</StrictMode>);
