// One entry of the sidebar's top navigation, with an optional count.
import { Icon, type IconName } from '../../components/Icon';

export function NavItem({ icon, label, count, current, onClick, countLabel }: { icon: IconName; label: string; count?: number; current: boolean; onClick: () => void; countLabel?: string }) {
  return (
    <li>
      <button type="button" className="nav-item" aria-current={current ? 'page' : undefined} onClick={onClick}>
        <Icon name={icon} size={16} />
        <span className="nav-label">{label}</span>
        {count !== undefined && count > 0 && (
          <span className="count" aria-label={countLabel ?? `${count}`}>
            {count}
          </span>
        )}
      </button>
    </li>
  );
}
