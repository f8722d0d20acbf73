// The three states every view has besides "full": loading, error (with Try again) and empty.
import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <Icon name="alert" size={20} />
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function EmptyState({ icon, title, children, actions }: { icon: IconName; title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="state state-empty">
      <span className="state-icon">
        <Icon name={icon} size={22} />
      </span>
      <h2>{title}</h2>
      {children && <div className="state-text">{children}</div>}
      {actions && <div className="state-actions">{actions}</div>}
    </div>
  );
}
