// A task card: id and age, title (opens the drawer), assignee/reviewer/PR chips, Accept and
// Cancel on proposed cards, and "Move to…". Dragging it with a pointer changes its status.
import { useDraggable } from '@dnd-kit/core';
import type { TaskStatus } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';
import { Time } from '../../components/Time';
import { MoveToMenu } from './MoveToMenu';
import { TaskMeta } from './TaskMeta';

export interface TaskCardProps {
  task: TaskCard;
  onOpen: (task: TaskCard) => void;
  onMove: (task: TaskCard, to: TaskStatus) => void;
  /** Rendered inside the drag overlay: no handlers, no drag hooks. */
  overlay?: boolean;
}

export function TaskCardView({ task, onOpen, onMove }: TaskCardProps) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: `task-${task.number}`, data: { task } });
  return (
    <div ref={setNodeRef} {...listeners} className={isDragging ? 'task-card dragging' : 'task-card'} data-task={task.number}>
      <CardBody task={task} onOpen={onOpen} onMove={onMove} />
    </div>
  );
}

/** The card's content, shared by the card and its drag overlay. */
export function CardBody({ task, onOpen, onMove, overlay = false }: TaskCardProps) {
  return (
    <article aria-label={`${task.id}: ${task.title}`}>
      <div className="task-card-head">
        <span className="task-id">{task.id}</span>
        <Time className="task-age" iso={task.updatedAt} />
        {!overlay && <MoveToMenu task={task} onMove={(to) => onMove(task, to)} />}
      </div>
      <button type="button" className="task-title" onClick={() => onOpen(task)} tabIndex={overlay ? -1 : 0}>
        {task.title}
      </button>
      <TaskMeta task={task} />
      {task.status === 'proposed' && !overlay && (
        <div className="task-proposal">
          <span className="task-proposer">Proposed by {task.createdBy.name}</span>
          <div className="task-proposal-actions">
            <button type="button" className="btn btn-small btn-primary" onClick={() => onMove(task, 'accepted')}>
              Accept
            </button>
            <button type="button" className="btn btn-small" onClick={() => onMove(task, 'cancelled')}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </article>
  );
}
