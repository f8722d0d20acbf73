// Cleaning a requested display name (data-model.md §5.2). The cleaned name is what a
// session shows and what the actor label starts with, so "|" (the label separator) and
// control characters never get in.

export const MAX_DISPLAY_NAME_CHARS = 64;

/** Trims, removes control characters and "|", collapses whitespace; null when outside 1–64 characters. */
export function cleanDisplayName(requested: string | null | undefined): string | null {
  if (typeof requested !== 'string') return null;
  const cleaned = requested
    .trim()
    .replace(/[\p{Cc}|]/gu, '')
    .replace(/\s+/gu, ' ')
    // Removing a character can expose whitespace at either end ("\u0007 Ada").
    .trim();
  const length = [...cleaned].length;
  return length >= 1 && length <= MAX_DISPLAY_NAME_CHARS ? cleaned : null;
}
