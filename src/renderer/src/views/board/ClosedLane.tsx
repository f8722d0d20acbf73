// The collapsible "Closed" lane: Merged · Done · Cancelled. It opens by itself while a card
// is dragged, so closing a task by drag is possible.
import { CLOSED_LANE, type TaskStatus } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';
import { Icon } from '../../components/Icon';
import { BoardColumn } from './BoardColumn';

export function ClosedLane({ tasks, open, onToggle, dragFrom, onOpen, onMove }: {
  tasks: TaskCard[];
  open: boolean;
  onToggle: () => void;
  dragFrom: TaskStatus | null;
  onOpen: (task: TaskCard) => void;
  onMove: (task: TaskCard, to: TaskStatus) => void;
}) {
  const shown = open || dragFrom !== null;
  return (
    <div className={shown ? 'closed-lane open' : 'closed-lane'}>
      <button type="button" className="closed-lane-toggle" aria-expanded={shown} onClick={onToggle}>
        <Icon name={shown ? 'chevronDown' : 'chevronRight'} size={14} />
        Closed <span className="column-count">{tasks.length}</span>
      </button>
      {shown && (
        <div className="closed-lane-columns">
          {CLOSED_LANE.map((status) => (
            <BoardColumn key={status} status={status} tasks={tasks.filter((t) => t.status === status)} dragFrom={dragFrom} onOpen={onOpen} onMove={onMove} slim />
          ))}
        </div>
      )}
    </div>
  );
}
