// Settings → Teams: rooms shared with other machines through a PostgreSQL database the
// team runs. Lists the teams with their live connection state, adds and removes them, and
// sets where new rooms go by default.
import { useState } from 'react';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { useQuery } from '../../../api/useQuery';
import { Icon } from '../../../components/Icon';
import { ErrorState, Loading } from '../../../components/StateViews';
import { useToast } from '../../../components/Toasts';
import { AddTeamDialog } from './AddTeamDialog';
import { TeamItem } from './TeamItem';
import { testWords } from './teamWords';

export function TeamsSettings() {
  const api = useApi();
  const toast = useToast();
  const teams = useQuery('teams.list', {}, (event) => event.type === 'teams.changed');
  const [adding, setAdding] = useState(false);
  if (teams.status === 'loading') return <Loading />;
  if (!teams.data) return <ErrorState message={teams.error ?? 'Teams cannot be shown.'} onRetry={teams.reload} />;
  const { teams: list, defaultPlace } = teams.data;
  const setDefault = (place: string) =>
    api.call('teams.setDefault', { place }).then(
      (next) => teams.setData(() => next),
      (error: unknown) => toast(errorMessage(error), 'error'),
    );
  return (
    <div className="teams">
      {list.length === 0 ? (
        <p className="muted">No teams yet: every room is on this computer.</p>
      ) : (
        <ul className="team-list" aria-label="Teams">
          {list.map((team) => (
            <TeamItem key={team.name} team={team} isDefault={team.name === defaultPlace} />
          ))}
        </ul>
      )}
      <button type="button" className="btn" onClick={() => setAdding(true)}>
        <Icon name="plus" size={14} /> Add a team
      </button>
      <div className="inline-field">
        <label htmlFor="team-default-place">New rooms go to</label>
        <select id="team-default-place" value={defaultPlace} onChange={(e) => void setDefault(e.target.value)}>
          <option value="local">This computer</option>
          {list.map((team) => (
            <option key={team.name} value={team.name}>
              Team {team.name}
            </option>
          ))}
        </select>
        <span>unless a repo pattern decides</span>
      </div>
      {adding && (
        <AddTeamDialog
          onAdded={(name, test) => {
            toast(`Team ${name} added. ${testWords(test)}`);
            teams.reload();
          }}
          onClose={() => setAdding(false)}
        />
      )}
    </div>
  );
}
