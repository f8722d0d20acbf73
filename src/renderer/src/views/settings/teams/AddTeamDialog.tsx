// "Add a team": a name and the team database's URL (a password field: the URL holds one),
// and the knowing choice to allow plaintext to another computer. The app tests the
// connection and sets the database up before it keeps anything.
import { useState } from 'react';
import type { TeamTest } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { Dialog } from '../../../components/Dialog';
import { Form } from '../../../components/Form';

const NAME_SHAPE = /^[A-Za-z0-9_-]{1,40}$/;

export function AddTeamDialog({ onAdded, onClose }: { onAdded: (name: string, test: TeamTest) => void; onClose: () => void }) {
  const api = useApi();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [allowPlaintext, setAllowPlaintext] = useState(false);
  const check = () => {
    if (!NAME_SHAPE.test(name.trim())) return 'A team name has 1–40 letters, digits, "-" or "_".';
    if (url.trim() === '') return 'Paste the team database URL.';
    return null;
  };
  return (
    <Dialog title="Add a team" onClose={onClose} wide>
      <Form
        submitLabel="Test and add"
        check={check}
        onSubmit={async () => {
          const added = await api.call('teams.add', { name: name.trim(), url: url.trim(), allowPlaintext });
          onAdded(added.team.name, added.test);
          onClose();
        }}
        onCancel={onClose}
      >
        {(error) => (
          <>
            <label className="field">
              <span>Team name</span>
              <input value={name} onChange={(e) => setName(e.target.value)} maxLength={40} data-autofocus placeholder="acme" autoComplete="off" spellCheck={false} aria-invalid={error ? true : undefined} />
            </label>
            <div className="field">
              <label htmlFor="team-url">Database URL</label>
              <input
                id="team-url"
                type="password"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="postgres://user:password@db.example.com:5432/team?sslmode=verify-full"
                autoComplete="off"
                spellCheck={false}
                aria-describedby="team-url-help"
                aria-invalid={error ? true : undefined}
              />
              <span id="team-url-help" className="field-help">
                Kept in your system keychain only; shown afterwards without its password. A database on another computer needs TLS (sslmode=verify-full).
              </span>
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={allowPlaintext} onChange={(e) => setAllowPlaintext(e.target.checked)} />
              <span>Allow an unencrypted connection to another computer (the password and every message cross the network readable)</span>
            </label>
          </>
        )}
      </Form>
    </Dialog>
  );
}
