// Id formats of data-model.md §1: `msg_N`, `task_N`, `fact_N`, `req_N`, `artifact_N`, and
// `alert_N` for the "Needs you" items the app raises (issue 14; never shown to agents).
// N is a positive integer without leading zeros, at most 2 147 483 647.

export const MAX_NUMBER = 2_147_483_647;

export type NumberedPrefix = 'msg' | 'task' | 'fact' | 'req' | 'artifact' | 'alert';

/** Parses `<prefix>_<N>`; returns null for anything malformed (msg_01, msg_0, too large). */
export function parseNumberedId(prefix: NumberedPrefix, value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^([a-z]+)_([1-9][0-9]{0,9})$/.exec(value);
  if (!match || match[1] !== prefix) return null;
  const n = Number(match[2]);
  return n <= MAX_NUMBER ? n : null;
}

export function formatId(prefix: NumberedPrefix, n: number): string {
  return `${prefix}_${n}`;
}

export const msgId = (n: number) => formatId('msg', n);
export const taskId = (n: number) => formatId('task', n);
