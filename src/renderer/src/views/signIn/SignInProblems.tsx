// Why sign-in cannot start, and how to fix it: no keychain, or no GitHub client id.
import { useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';

export function KeychainUnavailable({ message }: { message: string | null }) {
  return (
    <div className="notice notice-warn" role="alert">
      <Icon name="key" size={18} />
      <div>
        <h2>Sign-in needs your system keychain</h2>
        <p>LetAgents keeps your GitHub sign-in only in the system keychain, never in a file, and the keychain is not available right now.</p>
        {message && <p className="notice-detail">{message}</p>}
        <p>
          On Linux, install and unlock a Secret Service such as GNOME Keyring or KWallet, then restart LetAgents. On macOS and Windows the keychain is built in:
          unlock it and try again. Everything else in LetAgents works without signing in.
        </p>
      </div>
    </div>
  );
}

export function NoClientId({ onSaved }: { onSaved: () => void }) {
  const api = useApi();
  const [clientId, setClientId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      await api.call('settings.set', { githubClientId: clientId.trim() });
      onSaved();
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return (
    <div className="notice">
      <Icon name="github" size={18} />
      <div>
        <h2>Set a GitHub client id first</h2>
        <ol className="steps">
          <li>On GitHub, open Settings → Developer settings → OAuth Apps → New OAuth App.</li>
          <li>Give it any name and homepage, then tick <strong>Enable Device Flow</strong>.</li>
          <li>Copy its <strong>Client ID</strong> and paste it here (or start LetAgents with <code>LETAGENTS_GITHUB_CLIENT_ID</code> set).</li>
        </ol>
        <form className="inline-form" onSubmit={save}>
          <input value={clientId} onChange={(e) => setClientId(e.target.value)} placeholder="Client ID, e.g. Ov23li…" aria-label="GitHub client id" />
          <button type="submit" className="btn btn-primary" disabled={clientId.trim() === ''}>
            Save
          </button>
        </form>
        {error && <p className="form-error" role="alert">{error}</p>}
      </div>
    </div>
  );
}
