// The composer: multi-line; Enter sends, Shift+Enter adds a line; "@" completes agent
// names and @all, "task_" completes task ids. Text stays if sending fails. With `preview`, it
// shows whom the draft will wake ("→ Cedar"), asked of the app a moment after typing stops.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { WakePreview } from '../../../../shared/types';
import { wakeText, wakeWhy } from '../../lib/wakePreview';
import { applyCompletion, findCompletionQuery, mentionOptions, taskOptions, type CompletionOption, type CompletionQuery } from '../../lib/completion';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';
import { CompletionList } from './CompletionList';

export interface ComposerProps {
  label: string;
  placeholder: string;
  agentNames: readonly string[];
  tasks: ReadonlyArray<{ number: number; title: string }>;
  onSend: (text: string) => Promise<unknown>;
  disabled?: boolean;
  disabledReason?: string;
  autoFocus?: boolean;
  /** Whom the draft would wake (messages.preview); called debounced while the person types. */
  preview?: (text: string) => Promise<WakePreview>;
}

/** How long typing must pause before the composer asks whom the draft wakes. */
const PREVIEW_DEBOUNCE_MS = 250;

export function Composer({ label, placeholder, agentNames, tasks, onSend, disabled = false, disabledReason, autoFocus = false, preview }: ComposerProps) {
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const wakes = useWakePreview(text, preview);

  const query: CompletionQuery | null = useMemo(() => {
    const found = findCompletionQuery(text, caret);
    return found && found.start !== dismissedAt ? found : null;
  }, [text, caret, dismissedAt]);
  const options: CompletionOption[] = useMemo(() => {
    if (!query) return [];
    return query.kind === 'mention' ? mentionOptions(query.typed, agentNames) : taskOptions(query.typed, tasks);
  }, [query, agentNames, tasks]);
  const open = options.length > 0;

  // Grow with the text up to a limit (CSS caps the height).
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [text]);

  const update = (value: string, position: number) => {
    setText(value);
    setCaret(position);
    setActive(0);
    setError(null);
  };
  const pick = (option: CompletionOption) => {
    if (!query) return;
    const next = applyCompletion(text, caret, query, option);
    update(next.text, next.caret);
    requestAnimationFrame(() => area.current?.setSelectionRange(next.caret, next.caret));
  };
  const send = async () => {
    if (text.trim() === '' || sending || disabled) return;
    setSending(true);
    try {
      await onSend(text);
      update('', 0);
    } catch (thrown) {
      setError(errorMessage(thrown));
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (open && (event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      event.preventDefault();
      pick(options[active]);
    } else if (open && event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setDismissedAt(query?.start ?? null);
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div className="composer">
      {open && <CompletionList id={listId} options={options} active={active} onPick={pick} />}
      {error && <p className="form-error composer-error" role="alert">{error}</p>}
      <div className="composer-box">
        <textarea
          ref={area}
          rows={1}
          value={text}
          placeholder={disabled ? disabledReason : placeholder}
          aria-label={label}
          disabled={disabled}
          autoFocus={autoFocus}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${active}` : undefined}
          onChange={(event) => update(event.target.value, event.target.selectionStart)}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn btn-primary btn-send" onClick={() => void send()} disabled={disabled || sending || text.trim() === ''} aria-label="Send">
          <Icon name="send" size={16} />
        </button>
      </div>
      {wakes && (
        <p className="composer-wake" aria-live="polite" title={wakeWhy(wakes)} data-wakes={wakes.to}>
          {wakeText(wakes)}
        </p>
      )}
      <p className="composer-hint" aria-hidden="true">
        <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line · <kbd>@</kbd> to mention
      </p>
    </div>
  );
}

/** The app's answer for the draft as it stands, after typing pauses; nothing for a blank draft. */
function useWakePreview(text: string, preview: ComposerProps['preview']): WakePreview | null {
  const [result, setResult] = useState<{ text: string; wakes: WakePreview } | null>(null);
  useEffect(() => {
    if (!preview || text.trim() === '') return;
    let current = true;
    const timer = setTimeout(() => {
      preview(text).then(
        (wakes) => current && setResult({ text, wakes }),
        () => current && setResult(null),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, preview]);
  // An answer for an older draft still shows until the new one comes (no flicker while typing).
  return text.trim() === '' ? null : (result?.wakes ?? null);
}
