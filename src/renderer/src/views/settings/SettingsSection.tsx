// A titled block on the settings page.
import type { ReactNode } from 'react';

export function SettingsSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = `settings-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="settings-section" aria-labelledby={id}>
      <div className="settings-label">
        <h2 id={id}>{title}</h2>
        {description && <p className="muted">{description}</p>}
      </div>
      <div className="settings-control">{children}</div>
    </section>
  );
}
