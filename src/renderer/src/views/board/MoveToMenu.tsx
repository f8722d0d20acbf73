// Keyboard alternative to dragging: "Move to…" lists only the statuses the table allows.
import { STATUS_LABELS, type TaskStatus } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';
import { Icon } from '../../components/Icon';
import { Menu } from '../../components/Menu';
import { moveTargets } from './boardRules';

export function MoveToMenu({ task, onMove, compact = true }: { task: TaskCard; onMove: (to: TaskStatus) => void; compact?: boolean }) {
  const items = moveTargets(task.status).map((to) => ({ key: to, label: STATUS_LABELS[to], onSelect: () => onMove(to), danger: to === 'cancelled' }));
  return (
    <Menu label={`Move ${task.id} to…`} items={items} buttonClassName={compact ? 'btn btn-icon btn-small' : 'btn btn-small'}>
      <Icon name="move" size={14} />
      {!compact && <span>Move to…</span>}
    </Menu>
  );
}
