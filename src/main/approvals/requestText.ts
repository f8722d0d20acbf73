// What a person sees of a tool use an agent asks about: the command or path it names, and its
// whole input. Both are shown whole, so what Allow runs is what the person read; one longer
// than MAX_SHOWN_INPUT_CHARS is kept cut (the cut says so) and can only be denied.
import { MAX_SHOWN_INPUT_CHARS } from '../../shared/model/approvals';
import type { ApprovalRow } from '../store/approvalQueries';

const cut = (text: string) =>
  text.length <= MAX_SHOWN_INPUT_CHARS ? text : `${text.slice(0, MAX_SHOWN_INPUT_CHARS)}\n⋯ ${(text.length - MAX_SHOWN_INPUT_CHARS).toLocaleString('en-US')} more characters not shown ⋯`;

/** The command, path or address the input names; '' when it names none. */
export function summaryOf(input: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'notebook_path', 'path', 'url', 'pattern']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return cut(value.trim());
  }
  return '';
}

/** The whole input as JSON, laid out to read. */
export function previewOf(input: unknown): string {
  let json: string;
  try {
    json = typeof input === 'string' ? input : JSON.stringify(input, null, 2) ?? '';
  } catch {
    json = '';
  }
  return cut(json);
}

/**
 * The person cannot see the whole input, so Allow is not offered (nor taken): a managed turn's
 * input the app had to cut, or a channel request whose preview Claude Code shortened (it marks
 * a cut value with "…" and an elided middle with "⋯"; its terminal shows the input whole).
 */
export function inputCut(row: Pick<ApprovalRow, 'source' | 'description' | 'input_preview'>): boolean {
  if (row.source === 'channel') return /[…⋯]/.test(row.input_preview) || /[…⋯]/.test(row.description);
  return row.description.length > MAX_SHOWN_INPUT_CHARS || row.input_preview.length > MAX_SHOWN_INPUT_CHARS;
}

/** Why an Allow of a cut input is refused, and what to do instead. */
export function cutInputRefusal(row: Pick<ApprovalRow, 'source'>): string {
  return row.source === 'channel'
    ? 'Claude Code sent only part of this input, so it cannot be allowed here: answer in its terminal, where it is shown whole.'
    : `This input is too long to show whole (more than ${MAX_SHOWN_INPUT_CHARS.toLocaleString('en-US')} characters), so it cannot be allowed: deny it, and ask the agent for something shorter (a script file, for example).`;
}

/** The command as the agent's activity log names it: its start, for the log is not where it is allowed. */
export function logSummary(description: string): string {
  return description.length <= LOG_SUMMARY_CHARS ? description : `${description.slice(0, LOG_SUMMARY_CHARS - 1)}…`;
}

const LOG_SUMMARY_CHARS = 500;
