// Short notices after an action ("Moved task_7 to In review", or why something was refused).
// Each goes by itself, or by its Dismiss button. Screen readers hear each one through the live
// announcer when it is made, so news that a view also reports (a task move) is spoken once.
// A few show at a time and the rest wait their turn ("2 more"). Where the stack sits is the
// shell's choice: a corner of the window by default, or a ToastSlot (the phone's, above its tab
// bar, in the page's flow so that no notice ever covers a control).
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './Icon';
import { useAnnounce } from './LiveAnnouncer';

type Tone = 'info' | 'error';
interface Toast {
  readonly id: number;
  readonly text: string;
  readonly tone: Tone;
}

/** How long a notice shows once it is on screen (an error is read more slowly). */
const SHOWN_MS: Record<Tone, number> = { info: 3500, error: 6000 };
/** Notices shown at once where the shell does not say. */
const SHOWN_AT_ONCE = 3;
/** Notices kept at most (shown and waiting): older waiting ones are dropped; each was announced already. */
const KEPT = 10;

interface Slot {
  readonly element: HTMLElement;
  readonly shownAtOnce: number;
}

const ToastContext = createContext<(text: string, tone?: Tone) => void>(() => {});
const SlotContext = createContext<(slot: Slot | null) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [slot, setSlot] = useState<Slot | null>(null);
  const next = useRef(0);
  const announce = useAnnounce();
  const show = useCallback(
    (text: string, tone: Tone = 'info') => {
      announce(text);
      const id = ++next.current;
      setToasts((list) => [...list, { id, text, tone }].slice(-KEPT));
    },
    [announce],
  );
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);
  const stack = <ToastStack toasts={toasts} shownAtOnce={slot?.shownAtOnce ?? SHOWN_AT_ONCE} onDismiss={dismiss} />;
  return (
    <ToastContext.Provider value={show}>
      <SlotContext.Provider value={setSlot}>
        {children}
        {slot ? createPortal(stack, slot.element) : stack}
      </SlotContext.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): (text: string, tone?: Tone) => void {
  return useContext(ToastContext);
}

/** Where the shell wants its notices (in the page's flow), and how many at once. */
export function ToastSlot({ shownAtOnce }: { shownAtOnce: number }) {
  const setSlot = useContext(SlotContext);
  const [element, setElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!element) return;
    setSlot({ element, shownAtOnce });
    return () => setSlot(null);
  }, [element, shownAtOnce, setSlot]);
  return <div className="toast-slot" ref={setElement} />;
}

interface StackProps {
  readonly toasts: readonly Toast[];
  readonly shownAtOnce: number;
  readonly onDismiss: (id: number) => void;
}

function ToastStack({ toasts, shownAtOnce, onDismiss }: StackProps) {
  const shown = toasts.slice(0, shownAtOnce);
  const waiting = toasts.length - shown.length;
  // A notice waits while the person reads it (pointer on it) or is on its button (keyboard):
  // it must not vanish under them (WCAG 2.2.1).
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const stack = useRef<HTMLDivElement>(null);
  // An empty stack is gone from the page: no leave or blur may come for it, so it starts afresh.
  const empty = toasts.length === 0;
  useEffect(() => {
    if (!empty) return;
    setHovered(false);
    setFocused(false);
  }, [empty]);
  // Where focus came from when it entered the stack: it goes back there once the last notice it was on goes.
  const cameFrom = useRef<HTMLElement | null>(null);
  // Dismissed from the keyboard, focus goes on to the next notice (or back where it came from);
  // by a tap or a click it stays nowhere in the stack, so the others' clocks run again.
  const dismissed = (id: number, button: HTMLElement, byKeyboard: boolean) => {
    const buttons = [...(stack.current?.querySelectorAll<HTMLElement>('.toast-dismiss') ?? [])];
    const at = buttons.indexOf(button);
    const other = byKeyboard ? (buttons[at + 1] ?? buttons[at - 1] ?? (cameFrom.current?.isConnected ? cameFrom.current : null)) : null;
    if (other) other.focus();
    else {
      button.blur();
      // A button removed while focused sends no blur: the stack is not focused any more.
      setFocused(false);
    }
    onDismiss(id);
  };
  return (
    <div
      ref={stack}
      className="toasts"
      // Only a mouse hovers: a finger's touch is over as soon as it lifts.
      onPointerEnter={(event) => event.pointerType === 'mouse' && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) cameFrom.current = event.relatedTarget as HTMLElement | null;
        setFocused(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      {shown.length > 0 && (
        <ul className="toast-list" aria-label="Notices">
          {shown.map((toast) => (
            <ToastItem key={toast.id} toast={toast} paused={hovered || focused} onExpire={() => onDismiss(toast.id)} onDismiss={(button, byKeyboard) => dismissed(toast.id, button, byKeyboard)} />
          ))}
        </ul>
      )}
      {waiting > 0 && <p className="toasts-more">{waiting === 1 ? '1 more notice' : `${waiting} more notices`}</p>}
    </div>
  );
}

interface ItemProps {
  readonly toast: Toast;
  readonly paused: boolean;
  readonly onExpire: () => void;
  readonly onDismiss: (button: HTMLElement, byKeyboard: boolean) => void;
}

function ToastItem({ toast, paused, onExpire, onDismiss }: ItemProps) {
  const expire = useRef(onExpire);
  expire.current = onExpire;
  // Its time starts when it is shown (a waiting one has not been seen yet), and again after a pause.
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => expire.current(), SHOWN_MS[toast.tone]);
    return () => clearTimeout(timer);
  }, [paused, toast.tone]);
  const textId = `toast-${toast.id}`;
  return (
    <li className={`toast toast-${toast.tone}`}>
      <span className="toast-text" id={textId}>
        {toast.text}
      </span>
      <button type="button" className="toast-dismiss" aria-label="Dismiss notice" aria-describedby={textId} onClick={(event) => onDismiss(event.currentTarget, event.detail === 0)}>
        <Icon name="x" size={16} />
      </button>
    </li>
  );
}
