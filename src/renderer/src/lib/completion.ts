// Composer completion, as pure functions: find the "@…" or "task_…" being typed at the
// caret, list what matches, and put the chosen one into the text.

export type CompletionKind = 'mention' | 'task';

export interface CompletionQuery {
  kind: CompletionKind;
  /** Where the token starts in the text ("@" or "t"). */
  start: number;
  /** What is typed after "@" or "task_". */
  typed: string;
}

export interface CompletionOption {
  /** What goes into the text, without the trailing space. */
  insert: string;
  label: string;
  detail: string;
}

/** The token before the caret, when it is a mention or a task id being typed. */
export function findCompletionQuery(text: string, caret: number): CompletionQuery | null {
  const before = text.slice(0, caret);
  const mention = /(^|[\s(])@([A-Za-z0-9_.-]*)$/.exec(before);
  if (mention) return { kind: 'mention', start: caret - mention[2].length - 1, typed: mention[2] };
  const task = /(^|[\s(])task_(\d*)$/.exec(before);
  if (task) return { kind: 'task', start: caret - task[2].length - 5, typed: task[2] };
  return null;
}

export function mentionOptions(typed: string, agentNames: readonly string[]): CompletionOption[] {
  const lower = typed.toLowerCase();
  const names = [...new Set(agentNames)].sort((a, b) => a.localeCompare(b));
  const options: CompletionOption[] = names
    .filter((name) => name.toLowerCase().startsWith(lower))
    .map((name) => ({ insert: `@${name}`, label: `@${name}`, detail: 'agent' }));
  if ('all'.startsWith(lower)) options.push({ insert: '@all', label: '@all', detail: 'everyone in the room' });
  return options.slice(0, 8);
}

export function taskOptions(typed: string, tasks: ReadonlyArray<{ number: number; title: string }>): CompletionOption[] {
  return [...tasks]
    .sort((a, b) => b.number - a.number)
    .filter((task) => String(task.number).startsWith(typed))
    .slice(0, 8)
    .map((task) => ({ insert: `task_${task.number}`, label: `task_${task.number}`, detail: task.title }));
}

/** Replaces the token with the chosen option plus one space; returns the new text and caret. */
export function applyCompletion(text: string, caret: number, query: CompletionQuery, option: CompletionOption): { text: string; caret: number } {
  const after = text.slice(caret);
  const inserted = `${option.insert}${after.startsWith(' ') ? '' : ' '}`;
  const next = text.slice(0, query.start) + inserted + after;
  return { text: next, caret: query.start + inserted.length };
}
