// "Add automation" and "Edit": its name, who does the work (a managed agent, in its room, or a
// mention posted in a room for whichever agents it reaches), what to do, when it starts (a
// schedule in a time zone, a room event, a pull-request event), and the limits of each run.
import { useState } from 'react';
import type { Automation, AutomationTrigger, RunLimits } from '../../../../shared/model/automations';
import { DEFAULT_RUN_TURNS } from '../../../../shared/model/automations';
import { GITHUB_TRIGGERS } from '../../../../shared/automationWords';
import { STATUS_LABELS, TASK_STATUSES, type TaskStatus } from '../../../../shared/taskTransitions';
import { useApi } from '../../api/ApiContext';
import { useQuery } from '../../api/useQuery';
import { useAppData } from '../../app/appData';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import { LOCAL, refOf, roomKey } from '../../lib/rooms';
import { RoomOptions } from '../sidebar/RoomItem';
import { PERMISSION_WORDS } from '../agents/managed/managedWords';
import { formOf, triggerOf, TRIGGER_CHOICES, type TriggerForm } from './triggerForm';

/** "" means none; otherwise a whole number. */
const numberOf = (text: string): number | null | 'bad' => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : 'bad');

export function AutomationDialog({ automation, onClose, onSaved }: { automation?: Automation; onClose: () => void; onSaved: () => void }) {
  const api = useApi();
  const { rooms } = useAppData();
  const agents = useQuery('agents.list', {});
  const openRooms = (rooms.data ?? []).filter((r) => !r.archived);
  const [name, setName] = useState(automation?.name ?? '');
  const [targetKind, setTargetKind] = useState<'agent' | 'mention'>(automation?.target.kind ?? 'agent');
  const [agentId, setAgentId] = useState(automation?.target.kind === 'agent' ? automation.target.agentId : '');
  const [handle, setHandle] = useState(automation?.target.kind === 'mention' ? automation.target.handle : '');
  const [roomChoice, setRoomChoice] = useState(automation ? roomKey({ roomId: automation.roomId, place: automation.place }) : '');
  const [instructions, setInstructions] = useState(automation?.instructions ?? '');
  const [trigger, setTrigger] = useState<TriggerForm>(formOf(automation?.trigger));
  const limits = automation?.limits;
  const [maxTurns, setMaxTurns] = useState(String(limits?.maxTurns ?? DEFAULT_RUN_TURNS));
  const [maxTokens, setMaxTokens] = useState(limits?.maxTokens ? String(limits.maxTokens) : '');
  const [permissions, setPermissions] = useState<'' | 'read_only' | 'edit'>(limits?.permissions === 'read_only' || limits?.permissions === 'edit' ? limits.permissions : '');
  const [freshWorktree, setFreshWorktree] = useState(limits?.freshWorktree ?? false);
  const agentList = agents.data ?? [];
  const agent = agentList.find((a) => a.agentId === agentId) ?? (automation ? undefined : agentList[0]);
  const room = openRooms.find((r) => roomKey(refOf(r)) === roomChoice) ?? openRooms[0];
  const set = (patch: Partial<TriggerForm>) => setTrigger((t) => ({ ...t, ...patch }));

  const check = () => {
    if (name.trim() === '') return 'Give the automation a name.';
    if (targetKind === 'agent' && !agent) return 'Choose the managed agent that does the work (add one on the Agents page first).';
    if (targetKind === 'mention' && handle.trim() === '') return 'Write the name to mention, e.g. Reviewer or agents.';
    if (targetKind === 'mention' && !room) return 'Choose the room the mention is posted in.';
    if (instructions.trim() === '') return 'Write what the agent should do.';
    if (numberOf(maxTurns) === 'bad' || numberOf(maxTurns) === null) return 'Turns per run must be a whole number.';
    if (numberOf(maxTokens) === 'bad') return 'Tokens per run must be a whole number, or empty for no cap.';
    const made = triggerOf(trigger);
    return typeof made === 'string' ? made : null;
  };

  const save = async () => {
    const made = triggerOf(trigger) as AutomationTrigger;
    const target = targetKind === 'agent' ? { kind: 'agent' as const, agentId: agent!.agentId } : { kind: 'mention' as const, handle: handle.trim() };
    const runLimits: RunLimits =
      targetKind === 'agent'
        ? { maxTurns: numberOf(maxTurns) as number, maxTokens: numberOf(maxTokens) as number | null, permissions: permissions || null, freshWorktree }
        : { maxTurns: numberOf(maxTurns) as number, maxTokens: null, permissions: null, freshWorktree: false };
    if (automation) {
      await api.call('automations.edit', { automationId: automation.automationId, name: name.trim(), target, instructions, trigger: made, limits: runLimits });
    } else {
      const where = targetKind === 'agent' ? { roomId: agent!.roomId, place: LOCAL } : { roomId: room!.id, place: room!.place };
      await api.call('automations.add', { name: name.trim(), ...where, target, instructions, trigger: made, limits: runLimits });
    }
    onSaved();
    onClose();
  };

  return (
    <Dialog title={automation ? `Edit "${automation.name}"` : 'Add automation'} onClose={onClose} wide>
      <Form submitLabel={automation ? 'Save' : 'Add automation'} check={check} onSubmit={save} onCancel={onClose} className="form automation-form">
        <p className="dialog-lead">One run at a time; a run that cannot start (its agent paused or held, the run before still going) is recorded with why.</p>
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} data-autofocus placeholder="Morning triage" />
        </label>
        <fieldset className="choice-list">
          <legend className="managed-legend">Who does it</legend>
          <label className="choice">
            <input type="radio" name="target" checked={targetKind === 'agent'} onChange={() => setTargetKind('agent')} />
            <span className="choice-name">A managed agent, in its room</span>
          </label>
          <label className="choice">
            <input type="radio" name="target" checked={targetKind === 'mention'} onChange={() => setTargetKind('mention')} />
            <span>
              <span className="choice-name">A mention in a room</span>
              <span className="managed-choice-detail muted">Posted as you, so any agent it reaches takes part: managed agents, and connected agents that listen.</span>
            </span>
          </label>
        </fieldset>
        {targetKind === 'agent' ? (
          <label className="field">
            <span>Agent</span>
            <select value={agent?.agentId ?? ''} onChange={(e) => setAgentId(e.target.value)}>
              {agentList.length === 0 && <option value="">No managed agents yet</option>}
              {agentList.map((a) => (
                <option key={a.agentId} value={a.agentId}>
                  {a.name} ({a.roomName})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <div className="form-row">
            <label className="field">
              <span>Mention</span>
              <input value={handle} onChange={(e) => setHandle(e.target.value)} maxLength={65} placeholder="Reviewer" spellCheck={false} />
            </label>
            <label className="field">
              <span>Room</span>
              <select value={room ? roomKey(refOf(room)) : ''} onChange={(e) => setRoomChoice(e.target.value)} disabled={automation !== undefined}>
                <RoomOptions rooms={openRooms} />
              </select>
            </label>
          </div>
        )}
        <label className="field">
          <span>What to do</span>
          <textarea value={instructions} onChange={(e) => setInstructions(e.target.value)} rows={3} maxLength={20000} placeholder="Triage the issues opened since yesterday and post a short summary." />
        </label>
        <div className="form-row">
          <label className="field">
            <span>When it starts</span>
            <select value={trigger.kind} onChange={(e) => set({ kind: e.target.value as TriggerForm['kind'] })}>
              {TRIGGER_CHOICES.map((c) => (
                <option key={c.kind} value={c.kind}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          {trigger.kind === 'every' && (
            <>
              <label className="field field-narrow">
                <span>Every</span>
                <input value={trigger.every} onChange={(e) => set({ every: e.target.value })} inputMode="numeric" />
              </label>
              <label className="field field-narrow">
                <span>Unit</span>
                <select value={trigger.unit} onChange={(e) => set({ unit: e.target.value as TriggerForm['unit'] })}>
                  <option value="minutes">minutes</option>
                  <option value="hours">hours</option>
                </select>
              </label>
            </>
          )}
          {(trigger.kind === 'daily' || trigger.kind === 'weekdays') && (
            <label className="field field-narrow">
              <span>At (HH:MM)</span>
              <input value={trigger.time} onChange={(e) => set({ time: e.target.value })} placeholder="09:00" />
            </label>
          )}
          {trigger.kind === 'cron' && (
            <label className="field">
              <span>Cron expression</span>
              <input value={trigger.cron} onChange={(e) => set({ cron: e.target.value })} placeholder="0 9 * * 1-5" spellCheck={false} aria-describedby="cron-help" />
            </label>
          )}
          {trigger.kind === 'task_status' && (
            <label className="field">
              <span>Status</span>
              <select value={trigger.status} onChange={(e) => set({ status: e.target.value as TaskStatus })}>
                {TASK_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {trigger.kind === 'cron' && (
          <p id="cron-help" className="managed-choice-detail muted">
            Five fields: minute hour day-of-month month day-of-week ("0 9 * * 1-5" is 09:00 on weekdays).
          </p>
        )}
        {['every', 'daily', 'weekdays', 'cron'].includes(trigger.kind) && (
          <>
            <label className="field">
              <span>Time zone</span>
              <input value={trigger.timeZone} onChange={(e) => set({ timeZone: e.target.value })} spellCheck={false} />
            </label>
            <label className="choice">
              <input type="checkbox" checked={trigger.catchUp} onChange={(e) => set({ catchUp: e.target.checked })} />
              <span>
                <span className="choice-name">Catch up once</span>
                <span className="managed-choice-detail muted">After runs missed while the app was closed or the computer asleep: one run on return (never more).</span>
              </span>
            </label>
          </>
        )}
        {GITHUB_TRIGGERS.has(trigger.kind as AutomationTrigger['type']) && (
          <p className="managed-choice-detail muted">From the pull requests linked to the room's tasks, read with your GitHub sign-in every few minutes; signed out, it does nothing.</p>
        )}
        <fieldset className="choice-list">
          <legend className="managed-legend">Limits of each run</legend>
          <div className="form-row">
            <label className="field field-narrow">
              <span>Turns per run</span>
              <input value={maxTurns} onChange={(e) => setMaxTurns(e.target.value)} inputMode="numeric" />
            </label>
            {targetKind === 'agent' && (
              <label className="field field-narrow">
                <span>Tokens per run</span>
                <input value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} inputMode="numeric" placeholder="No cap" />
              </label>
            )}
          </div>
          {targetKind === 'agent' && (
            <label className="field">
              <span>It may</span>
              <select value={permissions} onChange={(e) => setPermissions(e.target.value as typeof permissions)}>
                <option value="">Do what the agent may{agent ? ` (${PERMISSION_WORDS[agent.permissions].label.toLowerCase()})` : ''}</option>
                <option value="read_only">{PERMISSION_WORDS.read_only.label}</option>
                <option value="edit">{PERMISSION_WORDS.edit.label}</option>
              </select>
            </label>
          )}
          {targetKind === 'agent' && (
            <label className="choice">
              <input type="checkbox" checked={freshWorktree} onChange={(e) => setFreshWorktree(e.target.checked)} />
              <span>
                <span className="choice-name">A fresh worktree for each run</span>
                <span className="managed-choice-detail muted">On a branch of its own, so runs never pile onto each other's changes (an agent that may edit a git repository).</span>
              </span>
            </label>
          )}
        </fieldset>
      </Form>
    </Dialog>
  );
}
