// Renderer entry: connects to the core (Electron IPC, the browser host's socket, or a paired
// phone's socket) and mounts the app, or explains why a browser tab cannot connect, or (a phone
// not paired yet) shows the pairing page.
import './lib/noEval';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { parsePhoneHash } from '../../shared/phoneLinks';
import { App } from './App';
import { NoAccess } from './NoAccess';
import { connectApi } from './api/connect';
import { PairPhone } from './views/phone/PairPhone';
import { phoneRoute } from './views/phone/phoneRoute';
import { registerPhoneWorker } from './views/phone/phoneWorker';
import './styles/index.css';

const root = createRoot(document.getElementById('root')!);
const render = (node: ReactNode) => root.render(<StrictMode>{node}</StrictMode>);

async function start(): Promise<void> {
  // Read before connecting takes the code off the address bar: a notification's link opens its item.
  const opens = parsePhoneHash(window.location.hash);
  const client = await connectApi();
  if (typeof client === 'string') {
    // A tab without access: a new link pasted into it (only its #code differs) loads it afresh.
    window.addEventListener('hashchange', () => window.location.hash.includes('code=') && window.location.reload());
    return render(<NoAccess reason={client} />);
  }
  if ('kind' in client) return render(<PairPhone pairing={client} onPaired={() => void start()} />);
  if (client.host === 'phone') void registerPhoneWorker();
  render(<App client={client} initialRoute={client.host === 'phone' ? phoneRoute(opens) : undefined} />);
}

void start();
