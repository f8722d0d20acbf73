// Why sign-in cannot start, and how to fix it: no keychain (its reason and fix, said once),
// or no GitHub OAuth App yet (three steps to make one, and where its client id goes).
import { useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';
import { openExternal } from '../../lib/openExternal';

const NEW_OAUTH_APP = 'https://github.com/settings/applications/new';

export function KeychainUnavailable({ message }: { message: string | null }) {
  return (
    <div className="notice notice-warn" role="alert">
      <Icon name="key" size={18} />
      <div>
        <h2>Sign-in needs your system keychain</h2>
        <p>LetAgents keeps your GitHub sign-in only in the system keychain, never in a file, and the keychain is not available right now.</p>
        {/* The core's message says what is wrong and how to fix it on this system. */}
        <p>{message ?? 'Unlock the system keychain (on Linux, a Secret Service such as GNOME Keyring or KWallet), then restart LetAgents.'}</p>
        <p>Everything else in LetAgents works without signing in.</p>
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
        <h2>Create a GitHub OAuth App first</h2>
        <p>Sign-in goes through an OAuth App of your own on GitHub. Making one takes a minute:</p>
        <ol className="steps">
          <li>
            On GitHub, open{' '}
            <a href={NEW_OAUTH_APP} onClick={(event) => { event.preventDefault(); void openExternal(api, NEW_OAUTH_APP); }}>
              Settings → Developer settings → OAuth Apps → New OAuth App
            </a>
            .
          </li>
          <li>
            Give it any name and homepage URL, and tick <strong>Enable Device Flow</strong>. The form also requires an
            authorization callback URL: enter <code>http://127.0.0.1</code>; LetAgents never uses it. Register the app.
          </li>
          <li>
            Copy its <strong>Client ID</strong> (no client secret is needed) and paste it below. It is kept in Settings → GitHub client id, where
            you can change it later (or start LetAgents with <code>LETAGENTS_GITHUB_CLIENT_ID</code> set).
          </li>
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
