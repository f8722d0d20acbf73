// Copies a text to the clipboard and says "Copied" for a moment.
import { useEffect, useState } from 'react';
import { Icon } from './Icon';

export function CopyButton({ text, label = 'Copy', className = 'btn btn-ghost btn-small', iconOnly = false }: { text: string; label?: string; className?: string; iconOnly?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1600);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  const words = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label;
  return (
    <button type="button" className={className} onClick={copy} aria-label={iconOnly ? words : undefined} title={iconOnly ? words : undefined}>
      <Icon name={state === 'copied' ? 'check' : 'copy'} size={14} />
      {!iconOnly && <span>{words}</span>}
      <span className="visually-hidden" aria-live="polite">{state === 'copied' ? 'Copied to the clipboard' : ''}</span>
    </button>
  );
}
