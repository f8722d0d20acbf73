// Keyboard focus for things that open and close (dialogs, side panels, search): focus goes
// back where it came from, and a modal keeps Tab inside itself.
import { useEffect, useRef, useState, type RefObject } from 'react';

export const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Remembers what had focus when the caller opened and, when it closes, gives focus back
 * there, or to `fallback()` when that element is gone (a virtualised row, a moved card).
 * Focus the person already moved elsewhere (say, the sidebar) stays where it is.
 */
export function useFocusReturn(fallback?: () => HTMLElement | null | undefined): void {
  // Read while rendering: by the time effects run, an autofocused field inside has taken focus.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  const latestFallback = useRef(fallback);
  latestFallback.current = fallback;
  useEffect(
    () => () => {
      const active = document.activeElement;
      if (active && active !== document.body) return;
      if (opener?.isConnected && opener !== document.body) opener.focus();
      // A hidden opener (a message's hover actions) cannot take focus: use the fallback then.
      if (document.activeElement !== opener) latestFallback.current?.()?.focus();
    },
    [opener],
  );
}

/** A keydown handler that keeps Tab and Shift+Tab cycling inside `container`. */
export function useFocusTrap(container: RefObject<HTMLElement | null>): (event: React.KeyboardEvent) => void {
  return (event) => {
    if (event.key !== 'Tab' || !container.current) return;
    const items = [...container.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
}
