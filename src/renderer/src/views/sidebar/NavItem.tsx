// One entry of the sidebar's top navigation, with an optional count or keyboard hint.
import { Icon, type IconName } from '../../components/Icon';

export interface NavItemProps {
  icon: IconName;
  label: string;
  count?: number;
  current: boolean;
  onClick: () => void;
  countLabel?: string;
  /** A shortcut shown at the end ("Ctrl+K"), and said as aria-keyshortcuts. */
  hint?: string;
  keyShortcuts?: string;
}

export function NavItem({ icon, label, count, current, onClick, countLabel, hint, keyShortcuts }: NavItemProps) {
  return (
    <li>
      <button type="button" className="nav-item" aria-current={current ? 'page' : undefined} onClick={onClick} aria-keyshortcuts={keyShortcuts}>
        <Icon name={icon} size={16} />
        <span className="nav-label">{label}</span>
        {hint && (
          <kbd className="nav-hint" aria-hidden="true">
            {hint}
          </kbd>
        )}
        {count !== undefined && count > 0 && (
          <span className="count" aria-label={countLabel ?? `${count}`}>
            {count}
          </span>
        )}
      </button>
    </li>
  );
}
