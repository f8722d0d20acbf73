// What a screen reader hears without looking: one polite live region for the whole app.
// New messages, task moves, "Needs you" arrivals and toasts all speak through it, and the
// same sentence (or key) said twice within a few seconds is said once.
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';

/** Says `text` once; `key` names the news when two places may report it (a move and its toast). */
export type Announce = (text: string, key?: string) => void;

/** Reports of the same news closer together than this are one announcement. */
export const REPEAT_MS = 3000;
/** Lines kept in the region: screen readers read additions, so old ones only need to go eventually. */
const KEPT = 5;

const AnnouncerContext = createContext<Announce>(() => {});

export function LiveAnnouncerProvider({ children }: { children: ReactNode }) {
  const [lines, setLines] = useState<Array<{ id: number; text: string }>>([]);
  const said = useRef(new Map<string, number>());
  const next = useRef(0);
  const announce = useCallback<Announce>((text, key = text) => {
    const now = Date.now();
    for (const [k, at] of said.current) if (now - at >= REPEAT_MS) said.current.delete(k);
    if (text.trim() === '' || said.current.has(key)) return;
    said.current.set(key, now);
    const id = ++next.current;
    setLines((old) => [...old.slice(1 - KEPT), { id, text }]);
  }, []);
  return (
    <AnnouncerContext.Provider value={announce}>
      {children}
      <div id="announcements" className="visually-hidden" role="log" aria-live="polite" aria-relevant="additions">
        {lines.map((line) => (
          <p key={line.id}>{line.text}</p>
        ))}
      </div>
    </AnnouncerContext.Provider>
  );
}

export function useAnnounce(): Announce {
  return useContext(AnnouncerContext);
}
