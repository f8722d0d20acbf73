// One team in Settings → Teams: its connection state, URL without password and where it
// comes from, a read-only test, its repo patterns, and removal after a confirmation.
import { useState } from 'react';
import type { TeamSummary, TeamTest } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Icon } from '../../../components/Icon';
import { useToast } from '../../../components/Toasts';
import { TeamPatterns } from './TeamPatterns';
import { CONNECTION_WORDS, connectionDetail, testWords } from './teamWords';

export function TeamItem({ team, isDefault }: { team: TeamSummary; isDefault: boolean }) {
  const api = useApi();
  const toast = useToast();
  const [test, setTest] = useState<{ running: boolean; result: TeamTest | null; error: string | null }>({ running: false, result: null, error: null });
  const [removing, setRemoving] = useState(false);
  const detail = connectionDetail(team.connection);
  const headingId = `team-${team.name}`;
  const runTest = async () => {
    setTest({ running: true, result: null, error: null });
    try {
      setTest({ running: false, result: await api.call('teams.test', { name: team.name }), error: null });
    } catch (thrown) {
      setTest({ running: false, result: null, error: errorMessage(thrown) });
    }
  };
  return (
    <li className="team-item" aria-labelledby={headingId}>
      <div className="team-head">
        <h3 id={headingId}>{team.name}</h3>
        <span className={`pill team-state team-${team.connection.status}`}>
          <span className="status-dot" aria-hidden="true" />
          {CONNECTION_WORDS[team.connection.status]}
        </span>
        {isDefault && <span className="badge">Default place</span>}
      </div>
      {detail && <p className="team-detail">{detail}</p>}
      <p className="team-url">
        <code>{team.url}</code>
        <span className="muted"> · URL from {team.variable ?? 'the keychain'}{team.tls ? ` · TLS ${team.tls}` : ''}</span>
      </p>
      <TeamPatterns team={team} />
      <div className="team-actions">
        <button type="button" className="btn btn-small" onClick={() => void runTest()} disabled={test.running}>
          <Icon name="refresh" size={14} /> {test.running ? 'Testing…' : 'Test connection'}
        </button>
        {team.source === 'keychain' ? (
          <button type="button" className="btn btn-small" onClick={() => setRemoving(true)}>
            Remove
          </button>
        ) : (
          <span className="muted">Set by {team.variable}; unset it to remove the team.</span>
        )}
        <span role="status" className="team-test">
          {test.result && testWords(test.result)}
          {test.error && <span className="form-error">{test.error}</span>}
        </span>
      </div>
      {removing && (
        <ConfirmDialog
          title={`Remove the team ${team.name}?`}
          confirmLabel="Remove team"
          danger
          onConfirm={async () => {
            await api.call('teams.remove', { name: team.name });
            toast(`Team ${team.name} removed.`);
          }}
          onClose={() => setRemoving(false)}
        >
          <p>This computer stops using the team database and its URL leaves the keychain. The team&apos;s rooms stay in its database for everyone else; add the team again to see them here.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
