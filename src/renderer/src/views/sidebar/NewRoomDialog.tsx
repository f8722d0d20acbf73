// "New room": a named room in a chosen place — this computer, or a team (team-rooms.md §3) —
// preselected with where new rooms go by default. An existing room of that name there opens.
import { useState } from 'react';
import type { RoomSummary, TeamsList } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import { LOCAL } from '../../lib/rooms';
import { CONNECTION_WORDS } from '../settings/teams/teamWords';

export function NewRoomDialog({ teams, onCreated, onClose }: { teams: TeamsList | undefined; onCreated: (room: RoomSummary) => void; onClose: () => void }) {
  const api = useApi();
  const [name, setName] = useState('');
  const [place, setPlace] = useState(teams?.defaultPlace ?? LOCAL);
  return (
    <Dialog title="New room" onClose={onClose}>
      <Form
        submitLabel="Create room"
        check={() => (name.trim() === '' ? 'Give the room a name.' : null)}
        onSubmit={async () => {
          onCreated(await api.call('rooms.create', { name: name.trim(), place }));
          onClose();
        }}
        onCancel={onClose}
      >
        {(problem) => (
          <>
            <label className="field">
              <span>Name</span>
              <input value={name} onChange={(e) => setName(e.target.value)} maxLength={64} aria-invalid={problem !== null && name.trim() === ''} data-autofocus />
            </label>
            <label className="field">
              <span>Place</span>
              <select value={place} onChange={(e) => setPlace(e.target.value)}>
                <option value={LOCAL}>This computer</option>
                {(teams?.teams ?? []).map((team) => (
                  <option key={team.name} value={team.name}>
                    Team {team.name} ({CONNECTION_WORDS[team.connection.status]})
                  </option>
                ))}
              </select>
            </label>
            <p className="muted">A team&apos;s rooms are shared with everyone who added the team, on every machine.</p>
          </>
        )}
      </Form>
    </Dialog>
  );
}
