// Renderer entry: connects to the core (Electron IPC or the browser host's socket) and
// mounts the app, or explains why a browser tab cannot connect.
import './lib/noEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { NoAccess } from './NoAccess';
import { connectApi } from './api/connect';
import './styles/index.css';

const root = createRoot(document.getElementById('root')!);
void connectApi().then((client) => {
  // A tab without access: a new link pasted into it (only its #code differs) loads it afresh.
  if (typeof client === 'string') window.addEventListener('hashchange', () => window.location.hash.includes('code=') && window.location.reload());
  root.render(<StrictMode>{typeof client === 'string' ? <NoAccess reason={client} /> : <App client={client} />}</StrictMode>);
});
