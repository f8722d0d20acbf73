// "Add agent": which CLI, where it works, which room it joins under what name, its standing
// instructions and model, what it may do outside LetAgents' tools, and its budget.
import { useState } from 'react';
import type { AgentPermissions } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { useQuery } from '../../../api/useQuery';
import { useAppData } from '../../../app/appData';
import { Dialog } from '../../../components/Dialog';
import { Form } from '../../../components/Form';
import { RoomOptions } from '../../sidebar/RoomItem';
import { LOCAL, refOf, roomKey } from '../../../lib/rooms';
import { MENTION_CHARACTERS } from '../../../../../shared/words';
import { unmentionableName } from '../../../../../shared/mentions';
import { PERMISSION_WORDS } from './managedWords';


/** "" means no limit; otherwise a whole number. */
const limitOf = (text: string): number | null | 'bad' => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : 'bad');

export function AddAgentDialog({ onClose, onAdded }: { onClose: () => void; onAdded: () => void }) {
  const api = useApi();
  const { rooms } = useAppData();
  const providers = useQuery('agents.providers', {});
  // Managed agents run in this computer's rooms.
  const openRooms = (rooms.data ?? []).filter((r) => !r.archived && r.place === LOCAL);
  const [provider, setProvider] = useState('claude_code');
  const [name, setName] = useState('');
  const [roomId, setRoomId] = useState('');
  const [folder, setFolder] = useState('');
  const [instructions, setInstructions] = useState('');
  const [model, setModel] = useState('');
  const [permissions, setPermissions] = useState<AgentPermissions>('read_only');
  const [workInFolder, setWorkInFolder] = useState(false);
  const [turnsPerHour, setTurnsPerHour] = useState('20');
  const [dailyTokens, setDailyTokens] = useState('');
  const [newRoom, setNewRoom] = useState('');
  const room = openRooms.find((r) => roomKey(refOf(r)) === roomId)?.id ?? openRooms[0]?.id ?? '';
  const chosen = providers.data?.find((p) => p.id === provider);
  // Checked as it is typed, by the mention parser's own rule (issue 35: it came only after Add).
  const nameProblem = name.trim() === '' ? null : unmentionableName(name.trim());

  const check = () => {
    // Adding an agent whose CLI is missing would only fail at its first turn (issue 27).
    if (chosen && !chosen.installed) return `${chosen.name} is not installed on this computer. ${chosen.installHint}`;
    if (!room && newRoom.trim() === '') return 'Name the room it works in.';
    if (name.trim() === '') return 'Give the agent a name.';
    if (nameProblem) return nameProblem;
    if (folder.trim() === '') return 'Choose the folder the agent works in.';
    if (limitOf(turnsPerHour) === 'bad') return 'Turns per hour must be a whole number, or empty for no limit.';
    if (limitOf(dailyTokens) === 'bad') return 'The daily token cap must be a whole number, or empty for no cap.';
    return null;
  };

  return (
    <Dialog title="Add agent" onClose={onClose} wide>
      <Form
        submitLabel="Add agent"
        check={check}
        onSubmit={async () => {
          // No room yet (a first run): the one it names is created first (or opened, if it exists).
          const target = room || (await api.call('rooms.create', { name: newRoom.trim(), place: LOCAL })).id;
          await api.call('agents.add', {
            provider,
            name: name.trim(),
            roomId: target,
            folder: folder.trim(),
            permissions,
            ...(workInFolder ? { workInFolder } : {}),
            ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
            ...(model.trim() ? { model: model.trim() } : {}),
            turnsPerHour: limitOf(turnsPerHour) as number | null,
            dailyTokenCap: limitOf(dailyTokens) as number | null,
          });
          onAdded();
          onClose();
        }}
        onCancel={onClose}
      >
        <p className="dialog-lead">
          The app runs the agent's CLI with your own sign-in, only when something in its room needs it: a mention, a task handed to it, or Run now.
        </p>
        <fieldset className="choice-list">
          <legend className="managed-legend">Agent CLI</legend>
          {(providers.data ?? []).map((p) => (
            <label key={p.id} className="choice">
              <input type="radio" name="provider" value={p.id} checked={provider === p.id} onChange={() => (setProvider(p.id), p.permissions.includes(permissions) || setPermissions('read_only'))} />
              <span className="choice-name">{p.name}</span>
              {!p.installed && <span className="muted">not installed</span>}
            </label>
          ))}
          {chosen?.permissionsNote && <p className="managed-choice-detail muted">{chosen.permissionsNote}</p>}
        </fieldset>
        {chosen && !chosen.installed && <p className="managed-hint">{chosen.installHint}</p>}
        {chosen?.warning && (
          <p className="managed-hint" role="status">
            {chosen.warning}
          </p>
        )}
        <div className="form-row">
          <label className="field">
            <span>Name in the room</span>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={64} data-autofocus placeholder="Juniper" aria-describedby="agent-name-rule" aria-invalid={nameProblem !== null} />
          </label>
          {openRooms.length > 0 ? (
            <label className="field">
              <span>Room</span>
              <select value={room} onChange={(e) => setRoomId(e.target.value)}>
                <RoomOptions rooms={openRooms} />
              </select>
            </label>
          ) : (
            <label className="field">
              <span>New room</span>
              <input value={newRoom} onChange={(e) => setNewRoom(e.target.value)} maxLength={64} placeholder="release-work" aria-describedby="agent-room-rule" />
            </label>
          )}
        </div>
        {nameProblem ? (
          <p id="agent-name-rule" className="form-error" role="alert">
            {nameProblem}
          </p>
        ) : (
          <p id="agent-name-rule" className="managed-choice-detail muted">
            People mention it as @{name.trim() || 'Juniper'}: its name has only {MENTION_CHARACTERS}, no spaces.
          </p>
        )}
        {openRooms.length === 0 && (
          <p id="agent-room-rule" className="managed-choice-detail muted">
            No room yet: this one is made on this computer, and the agent joins it.
          </p>
        )}
        <label className="field">
          <span>Folder it works in</span>
          <input value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/home/you/projects/web-app" spellCheck={false} />
        </label>
        <label className="field">
          <span>Role or standing instructions <span className="field-optional">(optional)</span></span>
          <textarea value={instructions} onChange={(e) => setInstructions(e.target.value)} rows={3} maxLength={20000} placeholder="You review pull requests for the web app and answer questions about its tests." />
        </label>
        <fieldset className="choice-list">
          <legend className="managed-legend">What it may do outside LetAgents</legend>
          {(chosen?.permissions ?? []).map((p) => (
            <label key={p} className="choice">
              <input type="radio" name="permissions" value={p} checked={permissions === p} onChange={() => setPermissions(p)} />
              <span>
                <span className="choice-name">{PERMISSION_WORDS[p].label}</span>
                <span className="managed-choice-detail muted">{PERMISSION_WORDS[p].detail}</span>
              </span>
            </label>
          ))}
          {chosen?.permissionsNote && <p className="managed-choice-detail muted">{chosen.permissionsNote}</p>}
          {/* Right under its cause (issue 35): only an agent that may change files gets a worktree. */}
          {permissions !== 'read_only' && (
            <label className="choice managed-in-folder">
              <input type="checkbox" checked={workInFolder} onChange={(e) => setWorkInFolder(e.target.checked)} />
              <span>
                <span className="choice-name">Work in the folder itself</span>
                <span className="managed-choice-detail muted">
                  Otherwise, in a git repository, it works in a worktree of its own on a branch letagents/&lt;name&gt;, and you merge its changes.
                </span>
              </span>
            </label>
          )}
        </fieldset>
        <div className="form-row">
          <label className="field">
            <span>Model <span className="field-optional">(optional)</span></span>
            <input value={model} onChange={(e) => setModel(e.target.value)} placeholder="The CLI's default" spellCheck={false} />
          </label>
          <label className="field field-narrow">
            <span>Turns per hour</span>
            <input value={turnsPerHour} onChange={(e) => setTurnsPerHour(e.target.value)} inputMode="numeric" placeholder="No limit" />
          </label>
          <label className="field field-narrow">
            <span>Tokens per day</span>
            <input value={dailyTokens} onChange={(e) => setDailyTokens(e.target.value)} inputMode="numeric" placeholder="No cap" />
          </label>
        </div>
      </Form>
    </Dialog>
  );
}
