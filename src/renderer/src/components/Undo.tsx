// Actions that can be taken back for 10 seconds (cancelling a task): nothing is done until
// the time is up, so Undo leaves no trace, for agents either. Meanwhile the views show the
// action as done (the card sits in Cancelled) and a bar offers Undo (Ctrl/Cmd+Z too). A
// window closed within the 10 seconds applies what is pending on its way out.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useAnnounce } from './LiveAnnouncer';

export const UNDO_MS = 10_000;

export interface Undoable {
  /** Names what it is about ("task:<room>:<n>"): offering the same key again replaces the old offer. */
  key: string;
  /** "task_3 is cancelled." */
  text: string;
  /** Does it, once the time is up. */
  apply: () => Promise<unknown>;
  /** Said when the person took it back ("task_3 stays as it was."). */
  undoneText: string;
}

interface UndoContext {
  offer(action: Undoable): void;
  /** Takes the pending action back, as its Undo button does. */
  undo(key: string): void;
  /** Keys of actions waiting out their 10 seconds. */
  pending: ReadonlySet<string>;
}

const Context = createContext<UndoContext>({ offer: (action) => void action.apply(), undo: () => {}, pending: new Set() });

interface Waiting extends Undoable {
  timer: ReturnType<typeof setTimeout>;
}

export function UndoProvider({ children }: { children: ReactNode }) {
  const announce = useAnnounce();
  const [waiting, setWaiting] = useState<Waiting[]>([]);
  const live = useRef(new Map<string, Waiting>());

  const settle = useCallback((key: string) => {
    live.current.delete(key);
    setWaiting((list) => list.filter((w) => w.key !== key));
  }, []);
  const applyNow = useCallback(
    (key: string) => {
      const action = live.current.get(key);
      if (!action) return;
      clearTimeout(action.timer);
      settle(key);
      void action.apply();
    },
    [settle],
  );
  const offer = useCallback(
    (action: Undoable) => {
      applyNow(action.key);
      const entry: Waiting = { ...action, timer: setTimeout(() => applyNow(action.key), UNDO_MS) };
      live.current.set(action.key, entry);
      setWaiting((list) => [...list.filter((w) => w.key !== action.key), entry]);
      // Keyed by the text itself: a view that reports the same change (the board's move) is not said twice.
      announce(`${action.text} Undo within 10 seconds.`, action.text);
    },
    [announce, applyNow],
  );
  const undo = useCallback(
    (key: string) => {
      const action = live.current.get(key);
      if (!action) return;
      clearTimeout(action.timer);
      settle(key);
      announce(action.undoneText);
    },
    [announce, settle],
  );

  useEffect(() => {
    // Leaving the page: what was not taken back is done now.
    const flush = () => [...live.current.keys()].forEach(applyNow);
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest('input, textarea, [contenteditable="true"]');
      if (typing || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.key.toLowerCase() !== 'z') return;
      const latest = [...live.current.keys()].pop();
      if (!latest) return;
      event.preventDefault();
      undo(latest);
    };
    window.addEventListener('pagehide', flush);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [applyNow, undo]);

  const pending = new Set(waiting.map((w) => w.key));
  return (
    <Context.Provider value={{ offer, undo, pending }}>
      {children}
      {waiting.length > 0 && (
        <ul className="undo-bar" aria-label="Can be undone">
          {waiting.map((w) => (
            <li key={w.key} className="undo-item">
              <span>{w.text}</span>
              <button type="button" className="btn btn-small undo-button" onClick={() => undo(w.key)} aria-keyshortcuts="Control+Z Meta+Z">
                Undo
              </button>
            </li>
          ))}
        </ul>
      )}
    </Context.Provider>
  );
}

export function useUndo(): UndoContext {
  return useContext(Context);
}
