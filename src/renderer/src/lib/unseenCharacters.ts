// Characters that print as nothing shown by their code, so a command the person allows is the one they read.
/** Characters that print as nothing or reorder what follows (controls, bidirectional marks, zero-width ones) shown by their code. */
const UNSEEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]/g;

export function visible(text: string): string {
  return text.replace(UNSEEN, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
