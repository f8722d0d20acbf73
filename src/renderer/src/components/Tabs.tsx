// A row of tabs (role=tablist): arrow keys move between tabs, the selected one is focusable.
import { useRef } from 'react';
import { Icon, type IconName } from './Icon';

export interface TabSpec<K extends string> {
  key: K;
  label: string;
  icon: IconName;
}

export function Tabs<K extends string>({ tabs, selected, onSelect, label, idPrefix }: { tabs: TabSpec<K>[]; selected: K; onSelect: (key: K) => void; label: string; idPrefix: string }) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: React.KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.key === selected);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    onSelect(next.key);
    list.current?.querySelector<HTMLElement>(`#${idPrefix}-tab-${next.key}`)?.focus();
  };
  return (
    <div ref={list} className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          id={`${idPrefix}-tab-${tab.key}`}
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab.key === selected}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={tab.key === selected ? 0 : -1}
          onClick={() => onSelect(tab.key)}
        >
          <Icon name={tab.icon} size={15} />
          {tab.label}
        </button>
      ))}
    </div>
  );
}
