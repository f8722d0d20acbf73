// The links that open the phone's page at a place (issue 37): pairing (#pair=CODE, from the QR
// code), an item of Needs you (#item=…, from a notification) or the agents (#agents). The
// renderer reads them with parsePhoneHash; the app writes them.
import type { NeedsYouRef } from './model/needsYou';

export const PHONE_AGENTS_HASH = '#agents';

export function phonePairHash(code: string): string {
  return `#pair=${encodeURIComponent(code)}`;
}

export function phoneItemHash(ref: NeedsYouRef): string {
  return `#item=${[ref.kind, ref.place ?? 'local', ref.roomId, String(ref.number)].map(encodeURIComponent).join(':')}`;
}

export type PhoneHash =
  | { readonly open: 'pair'; readonly code: string }
  | { readonly open: 'item'; readonly ref: NeedsYouRef }
  | { readonly open: 'agents' }
  | { readonly open: null };

const KINDS: ReadonlySet<string> = new Set(['request', 'task', 'mention', 'alert', 'approval']);

export function parsePhoneHash(hash: string): PhoneHash {
  const text = hash.replace(/^#/, '');
  if (text === PHONE_AGENTS_HASH.slice(1)) return { open: 'agents' };
  const [key, value = ''] = [text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1)];
  const parts = value.split(':').map(decoded);
  if (key === 'pair' && parts.length === 1 && parts[0]) return { open: 'pair', code: parts[0] };
  if (key === 'item' && parts.length === 4 && KINDS.has(parts[0]) && /^\d+$/.test(parts[3]) && parts[2] !== '') {
    return { open: 'item', ref: { kind: parts[0] as NeedsYouRef['kind'], place: parts[1] || 'local', roomId: parts[2], number: Number(parts[3]) } };
  }
  return { open: null };
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
}
