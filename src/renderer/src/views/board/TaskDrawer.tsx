// The task drawer: description, assignee (Reassign…, Release; a managed agent's Changes), review holder (Release
// review), links, where it came from, its discussion, and its status history.
import { useState } from 'react';
import { STATUS_LABELS, type TaskStatus } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useQuery } from '../../api/useQuery';
import { roomRoute, useNavigation } from '../../app/navigation';
import { isEventOf, type RoomRef } from '../../lib/rooms';
import { AgentChip } from '../../components/AgentChip';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { Markdown } from '../../components/Markdown';
import { SidePanel } from '../../components/SidePanel';
import { ErrorState, Loading } from '../../components/StateViews';
import { useToast } from '../../components/Toasts';
import { HolderChanges } from './HolderChanges';
import { MoveToMenu } from './MoveToMenu';
import { TaskArtifacts } from './TaskArtifacts';
import { TaskHistory } from './TaskHistory';

export interface TaskDrawerProps {
  room: RoomRef;
  number: number;
  onClose: () => void;
  onMove: (task: TaskCard, to: TaskStatus) => void;
  onReassign: (task: TaskCard) => void;
  /** Where focus goes on close when the card title that opened the drawer is gone. */
  returnFocusTo?: () => HTMLElement | null | undefined;
}

export function TaskDrawer({ room, number, onClose, onMove, onReassign, returnFocusTo }: TaskDrawerProps) {
  const api = useApi();
  const toast = useToast();
  const { navigate } = useNavigation();
  const { roomId, place } = room;
  const task = useQuery('tasks.get', { roomId, place, number }, (e) => e.type === 'task.changed' && isEventOf(e, room) && e.task.number === number);
  const [confirm, setConfirm] = useState<'work' | 'review' | null>(null);
  const release = async (kind: 'work' | 'review') => {
    try {
      await api.call(kind === 'work' ? 'tasks.releaseWork' : 'tasks.releaseReview', { roomId, place, number });
      toast(kind === 'work' ? `task_${number} is back in Accepted.` : `Review of task_${number} released.`);
      task.reload();
    } catch (error) {
      toast(errorMessage(error), 'error');
      throw error;
    }
  };
  const t = task.data;
  const releaseDialog = confirm && t && (
    <ConfirmDialog
      title={confirm === 'work' ? `Release ${t.id}?` : `Release review of ${t.id}?`}
      confirmLabel={confirm === 'work' ? 'Release task' : 'Release review'}
      danger
      onConfirm={() => release(confirm)}
      onClose={() => setConfirm(null)}
    >
      {confirm === 'work'
        ? `${t.assignee?.name ?? 'The agent'} stops holding it and the task goes back to Accepted, ready for someone else.`
        : `${t.reviewer?.name ?? 'The reviewer'} stops reviewing it; another agent can take the review.`}
    </ConfirmDialog>
  );
  return (
    <SidePanel
      kind="task-drawer"
      label={t ? `${t.id}: ${t.title}` : 'Task'}
      closeLabel="Close task"
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      header={
        <>
          <span className="task-id">task_{number}</span>
          <CopyButton text={`task_${number}`} label="Copy id" iconOnly />
          {t && <span className={`status-pill status-pill-${t.status}`}>{STATUS_LABELS[t.status]}</span>}
          <span className="spacer" />
          {t && <MoveToMenu task={t} onMove={(to) => onMove(t, to)} compact={false} />}
        </>
      }
      after={releaseDialog}
    >
      {task.status === 'loading' && <Loading label="Loading task…" />}
      {task.status === 'error' && <ErrorState message={task.error} onRetry={task.reload} />}
      {t && (
        <>
          <h2 className="drawer-title">{t.title}</h2>
          {t.status === 'proposed' && (
            <div className="drawer-actions">
              <button type="button" className="btn btn-primary" onClick={() => onMove(t, 'accepted')}>Accept</button>
              <button type="button" className="btn" onClick={() => onMove(t, 'cancelled')}>Cancel</button>
            </div>
          )}
          <section className="drawer-section">
            <h3>Description</h3>
            {t.description ? <Markdown text={t.description} /> : <p className="muted">No description.</p>}
          </section>
          <section className="drawer-section">
            <h3>Assignee</h3>
            <div className="drawer-row">
              {t.assignee ? <AgentChip name={t.assignee.name} /> : <span className="muted">Nobody holds it.</span>}
              <span className="spacer" />
              {t.status !== 'done' && t.status !== 'cancelled' && t.status !== 'proposed' && (
                <button type="button" className="btn btn-small" onClick={() => onReassign(t)}>{t.assignee ? 'Reassign…' : 'Assign…'}</button>
              )}
              {t.assignee && <button type="button" className="btn btn-small" onClick={() => setConfirm('work')}>Release</button>}
            </div>
            {t.assignee && <HolderChanges room={room} holder={t.assignee} taskNumber={number} />}
          </section>
          <section className="drawer-section">
            <h3>Review</h3>
            <div className="drawer-row">
              {t.reviewer ? <AgentChip name={t.reviewer.name} status="reviewing" /> : <span className="muted">Nobody is reviewing.</span>}
              <span className="spacer" />
              {t.reviewer && <button type="button" className="btn btn-small" onClick={() => setConfirm('review')}>Release review</button>}
            </div>
          </section>
          <section className="drawer-section">
            <h3>Links</h3>
            <TaskArtifacts artifacts={t.artifacts} pr={t.pr} />
          </section>
          {(t.sourceMessageNumber !== null || t.discussionRootNumber !== null) && (
            <section className="drawer-section drawer-links">
              {t.sourceMessageNumber !== null && (
                <button type="button" className="link-button" onClick={() => navigate(roomRoute(room, 'chat', { focus: t.sourceMessageNumber! }))}>
                  <Icon name="chat" size={14} /> The message it came from
                </button>
              )}
              {t.discussionRootNumber !== null && (
                <button type="button" className="link-button" onClick={() => navigate(roomRoute(room, 'chat', { threadRoot: t.discussionRootNumber!, focus: t.discussionRootNumber! }))}>
                  <Icon name="reply" size={14} /> Discussion
                </button>
              )}
            </section>
          )}
          <section className="drawer-section">
            <h3>History</h3>
            <TaskHistory history={t.history} />
          </section>
        </>
      )}
    </SidePanel>
  );
}
