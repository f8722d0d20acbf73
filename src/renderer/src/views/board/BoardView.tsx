// The Board tab: six columns plus the Closed lane, drag and drop that follows the transition
// table, "New task", and the task drawer.
import { useState } from 'react';
import { DndContext, DragOverlay, PointerSensor, pointerWithin, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { BOARD_COLUMNS, CLOSED_LANE, type TaskStatus } from '../../../../shared/taskTransitions';
import type { AgentSession, RoomSummary, TaskCard } from '../../../../shared/types';
import { useQuery } from '../../api/useQuery';
import { isEventOf, refOf } from '../../lib/rooms';
import { roomRoute, useNavigation, type Route } from '../../app/navigation';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { ErrorState, Loading } from '../../components/StateViews';
import { AssignDialog } from './AssignDialog';
import { BoardColumn } from './BoardColumn';
import { ClosedLane } from './ClosedLane';
import { NewTaskDialog } from './NewTaskDialog';
import { CardBody } from './TaskCardView';
import { TaskDrawer } from './TaskDrawer';
import { dropAction, needsConfirmation, type TaskAction } from './boardRules';
import { cancelKey, useTaskActions } from './useTaskActions';
import { useUndo } from '../../components/Undo';
import { cardElement, useBoardFocus } from './useBoardFocus';
import { prefersReducedMotion } from '../../lib/motion';

type Pending = { task: TaskCard; action: TaskAction } | null;

const VISIBILITY_WORDS = { public: 'Public repository', private: 'Private repository', internal: 'Internal repository' } as const;

/** A repo room's GitHub visibility, once known. */
function RepoVisibilityBadge({ visibility }: { visibility: 'public' | 'private' | 'internal' | 'unknown' | null }) {
  if (!visibility || visibility === 'unknown') return null;
  return <span className="badge" title="Visibility of this room's repository on GitHub">{VISIBILITY_WORDS[visibility]}</span>;
}

const EDGE_SCROLL = { threshold: { x: 0.05, y: 0.2 } };

export function BoardView({ room, route, agents }: { room: RoomSummary; route: Extract<Route, { view: 'room' }>; agents: AgentSession[] }) {
  const { navigate } = useNavigation();
  const ref = refOf(room);
  const board = useQuery('tasks.board', ref, (e) => e.type === 'task.changed' && isEventOf(e, ref));
  const perform = useTaskActions();
  const { pending: waiting, undo } = useUndo();
  const [dragging, setDragging] = useState<TaskCard | null>(null);
  // While a card is dragged the columns keep the widths they had: the Closed lane opening
  // beside them must not move a column from under the pointer (the board scrolls instead).
  const [frozen, setFrozen] = useState<ReadonlyMap<string, number> | null>(null);
  const [closedOpen, setClosedOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));

  // A cancel waiting out its Undo time already shows where it will go.
  const tasks = (board.data?.tasks ?? []).map((task) => (waiting.has(cancelKey(task)) ? { ...task, status: 'cancelled' as const } : task));
  const followCard = useBoardFocus(tasks);
  const openTask = (task: TaskCard) => navigate(roomRoute(ref, 'board', { task: task.number }));
  const request = (task: TaskCard, to: TaskStatus, byDrag = false) => {
    // Moving a card whose cancel is still pending takes the cancel back: it never happened.
    if (waiting.has(cancelKey(task))) return undo(cancelKey(task));
    const action = dropAction(task.status, to);
    if (!action) return;
    followCard(task);
    if (action.kind === 'assign' || needsConfirmation(task, action, byDrag)) setPending({ task, action });
    else void perform(task, action);
  };
  const onDragStart = (event: DragStartEvent) => {
    const columns = [...document.querySelectorAll<HTMLElement>('.board > [data-status]')];
    setFrozen(new Map(columns.map((el) => [el.dataset.status ?? '', el.getBoundingClientRect().width])));
    setDragging((event.active.data.current as { task: TaskCard }).task);
  };
  const onDragEnd = (event: DragEndEvent) => {
    setDragging(null);
    setFrozen(null);
    const task = (event.active.data.current as { task: TaskCard }).task;
    // A refused column is a disabled drop target, so `over` is null there: nothing happens.
    if (event.over) request(task, event.over.id as TaskStatus, true);
  };

  if (board.status === 'loading') return <Loading label="Loading the board…" />;
  if (board.status === 'error' && !board.data) return <ErrorState message={board.error} onRetry={board.reload} />;

  const dragFrom = dragging?.status ?? null;
  // Empty columns narrow so the ones with cards fit; on a board with no open task they keep
  // their width, or the whole board would look collapsed (issue 35).
  const anyOpen = tasks.some((t) => BOARD_COLUMNS.includes(t.status));
  return (
    <div className={route.task !== undefined ? 'board-wrap with-side' : 'board-wrap'}>
      <div className="board-main">
        <div className="board-toolbar">
          <p className="muted">{tasks.length === 0 ? 'No tasks yet. Agents propose tasks here, or add one yourself.' : 'Drag a card to move it, or use its Move to… menu.'}</p>
          <RepoVisibilityBadge visibility={board.data?.repoVisibility ?? null} />
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)} disabled={room.archived}>
            <Icon name="plus" size={14} /> New task
          </button>
        </div>
        {/* pointerWithin: the column under the pointer decides, never a neighbour the card overlaps.
            The board scrolls sideways only with the pointer at its very edge: dnd-kit's default
            (the outer fifth) slid the columns out from under a card held over one near the right. */}
        <DndContext sensors={sensors} collisionDetection={pointerWithin} autoScroll={EDGE_SCROLL} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => (setDragging(null), setFrozen(null))}>
          <div className="board">
            {BOARD_COLUMNS.map((status) => (
              <BoardColumn key={status} status={status} tasks={tasks.filter((t) => t.status === status)} dragFrom={dragFrom} onOpen={openTask} onMove={request} width={frozen?.get(status)} narrowWhenEmpty={anyOpen} />
            ))}
            <ClosedLane tasks={tasks.filter((t) => CLOSED_LANE.includes(t.status))} open={closedOpen} onToggle={() => setClosedOpen((o) => !o)} dragFrom={dragFrom} onOpen={openTask} onMove={request} />
          </div>
          <DragOverlay dropAnimation={prefersReducedMotion() ? null : undefined}>{dragging && <div className="task-card overlay"><CardBody task={dragging} onOpen={() => {}} onMove={() => {}} overlay /></div>}</DragOverlay>
        </DndContext>
      </div>
      {route.task !== undefined && (
        <TaskDrawer
          key={route.task}
          room={ref}
          number={route.task}
          onClose={() => navigate(roomRoute(ref, 'board'))}
          onMove={request}
          onReassign={(task) => setPending({ task, action: { kind: 'assign' } })}
          returnFocusTo={() => cardElement(route.task!)?.querySelector<HTMLElement>('.task-title')}
        />
      )}
      {creating && <NewTaskDialog room={ref} agents={agents} onCreated={() => board.reload()} onClose={() => setCreating(false)} />}
      {pending?.action.kind === 'assign' && (
        <AssignDialog task={pending.task} agents={agents} onAssign={(agentKey) => perform(pending.task, pending.action, agentKey)} onClose={() => setPending(null)} />
      )}
      {pending?.action.kind === 'cancel' && (
        <ConfirmDialog
          title={`Cancel ${pending.task.id}?`}
          confirmLabel="Cancel task"
          danger
          onConfirm={async () => void (await perform(pending.task, pending.action))}
          onClose={() => setPending(null)}
        >
          {pending.task.assignee ? `${pending.task.assignee.name} is working on it; that work ends.` : 'The task closes as Cancelled.'} You can reopen it later.
        </ConfirmDialog>
      )}
    </div>
  );
}
