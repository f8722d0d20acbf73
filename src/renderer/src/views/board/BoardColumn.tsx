// One board column. While a card is dragged, a column the transition table does not allow
// is dimmed and disabled as a drop target, so the drop is refused. An empty column shrinks
// to a narrow strip (its name and 0, still a drop target), so the columns with cards fit;
// on a board with no open task every column keeps its width.
import { useDroppable } from '@dnd-kit/core';
import { STATUS_LABELS, type TaskStatus } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';
import { columnState } from './boardRules';
import { TaskCardView } from './TaskCardView';

export interface BoardColumnProps {
  status: TaskStatus;
  tasks: TaskCard[];
  dragFrom: TaskStatus | null;
  onOpen: (task: TaskCard) => void;
  onMove: (task: TaskCard, to: TaskStatus) => void;
  slim?: boolean;
  /** A fixed width in pixels (kept while a card is dragged). */
  width?: number;
  /** Empty, it shrinks to a strip (the board has cards elsewhere); default true. */
  narrowWhenEmpty?: boolean;
}

export function BoardColumn({ status, tasks, dragFrom, onOpen, onMove, slim = false, width, narrowWhenEmpty = true }: BoardColumnProps) {
  const state = columnState(dragFrom, status);
  const { setNodeRef, isOver } = useDroppable({ id: status, disabled: state === 'refused' });
  const strip = tasks.length === 0 && narrowWhenEmpty;
  const classes = ['board-column', `column-${state}`, isOver && state === 'allowed' ? 'column-over' : '', slim ? 'column-slim' : '', strip ? 'column-strip' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <section ref={setNodeRef} className={classes} style={width === undefined ? undefined : { flex: `0 0 ${width}px` }} aria-label={STATUS_LABELS[status]} aria-disabled={state === 'refused' ? true : undefined} data-status={status}>
      <header className="board-column-head">
        <h3>{STATUS_LABELS[status]}</h3>
        <span className="column-count">{tasks.length}</span>
        {state === 'refused' && <span className="column-refusal">Can't move here</span>}
      </header>
      <div className="board-column-cards">
        {tasks.map((task) => (
          <TaskCardView key={task.number} task={task} onOpen={onOpen} onMove={onMove} />
        ))}
        {tasks.length === 0 && <p className="column-empty">Nothing here</p>}
      </div>
    </section>
  );
}
