// The actions of a "Needs you" item the app raised (issue 14), in place of an answer box:
// remind the agent, hand the work to another agent (with whether a mention reaches each),
// copy a prompt for the agent's own chat, resume or stop a paused loop, resume a managed
// agent, change a room's budget; and Dismiss.
import { useState } from 'react';
import { REACHABILITY_WORDS } from '../../../../shared/model/workers';
import type { AlertAction, NeedsYouItem } from '../../../../shared/types';
import { errorMessage } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { Menu } from '../../components/Menu';
import { Time } from '../../components/Time';
import { LOCAL } from '../../lib/rooms';
import { BudgetDialog } from '../delivery/BudgetDialog';
import { ReachabilityLabel } from '../delivery/Reachability';

const ACTION_LABELS: Readonly<Record<Exclude<AlertAction, 'handoff'>, string>> = {
  remind: 'Remind',
  resume: 'Resume them',
  stop: 'Stop them',
  resume_agent: 'Resume it',
};

export interface AlertActionsProps {
  item: NeedsYouItem;
  onAct: (item: NeedsYouItem, action: AlertAction, toSessionId?: string) => Promise<unknown>;
  onDismiss: (item: NeedsYouItem) => Promise<unknown>;
  onOpen: (item: NeedsYouItem) => void;
}

export function AlertActions({ item, onAct, onDismiss, onOpen }: AlertActionsProps) {
  const alert = item.alert!;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [budgetOpen, setBudgetOpen] = useState(false);
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (thrown) {
      setError(errorMessage(thrown));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="needs-alert">
      {alert.agent && (
        <p className="needs-note">
          <strong>{alert.agent.name} now:</strong> <ReachabilityLabel reachability={alert.agent.reachability} withMeaning />
        </p>
      )}
      {alert.remindedAt && (
        <p className="needs-note muted">
          Reminded <Time iso={alert.remindedAt} />: the reminder wakes it as soon as it listens.
        </p>
      )}
      {alert.prompt && (
        <p className="needs-note">
          <strong>Or paste into its chat:</strong> <q>{alert.prompt}</q>
        </p>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="needs-actions">
        {item.threadRootNumber !== null && (
          <button type="button" className="btn btn-ghost" onClick={() => onOpen(item)}>
            Open in room
          </button>
        )}
        <span className="spacer" />
        {item.reason !== 'loop' && (
          <button type="button" className="btn" onClick={() => void act(() => onDismiss(item))} disabled={busy}>
            Dismiss
          </button>
        )}
        {alert.prompt && <CopyButton text={alert.prompt} label="Copy prompt" className="btn" />}
        {item.reason === 'room_budget' && (
          <button type="button" className="btn btn-primary" onClick={() => setBudgetOpen(true)}>
            Change budget…
          </button>
        )}
        {alert.actions.includes('handoff') && alert.handoffTo.length > 0 && (
          <Menu
            label={`Hand to another agent instead of ${item.from}`}
            buttonClassName="btn"
            items={alert.handoffTo.map((agent) => ({
              key: agent.sessionId,
              label: `${agent.name} — ${REACHABILITY_WORDS[agent.reachability].label}`,
              onSelect: () => void act(() => onAct(item, 'handoff', agent.sessionId)),
            }))}
          >
            Hand to…
          </Menu>
        )}
        {alert.actions
          .filter((a): a is Exclude<AlertAction, 'handoff'> => a !== 'handoff')
          .map((action, index, all) => (
            <button key={action} type="button" className={index === all.length - 1 ? 'btn btn-primary' : 'btn'} onClick={() => void act(() => onAct(item, action))} disabled={busy}>
              {ACTION_LABELS[action]}
            </button>
          ))}
      </div>
      {budgetOpen && <BudgetDialog room={{ roomId: item.ref.roomId, place: item.ref.place ?? LOCAL }} roomName={item.roomName} current={null} onClose={() => setBudgetOpen(false)} />}
    </div>
  );
}
