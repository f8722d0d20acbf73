// Message text and sender bounds (data-model.md §3.1, §8) and the UTF-8 helpers they need.
import { errors } from '../errors';

export const MAX_TEXT_BYTES = 262_144;
export const MAX_SENDER_CHARS = 512;
export const MAX_SENDER_BYTES = 2_048;

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export const isBlank = (text: string): boolean => text.trim() === '';

/** M5 for blank text, M6 above 262 144 UTF-8 bytes. */
export function checkMessageText(text: string): void {
  if (isBlank(text)) throw errors.M5();
  checkMessageTextSize(text);
}

export function checkMessageTextSize(text: string): void {
  if (utf8Bytes(text) > MAX_TEXT_BYTES) throw errors.M6();
}

/** M4 unless the sender is non-blank, ≤ 512 code points and ≤ 2 048 UTF-8 bytes. */
export function checkSender(sender: string): void {
  if (isBlank(sender) || [...sender].length > MAX_SENDER_CHARS || utf8Bytes(sender) > MAX_SENDER_BYTES) {
    throw errors.M4();
  }
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutToUtf8Bytes(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(maxBytes));
  return text.slice(0, read);
}

/** The first `maxChars` code points of `text` (surrogate pairs stay whole). */
export function cutToChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const chars = [...text];
  return chars.length <= maxChars ? text : chars.slice(0, maxChars).join('');
}
