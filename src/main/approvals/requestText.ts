// What a person sees of a tool use an agent asks about: the command or path it names, and
// its input cut short (both bounded: the input is the agent's, of any size).
const SUMMARY_CHARS = 500;
const PREVIEW_CHARS = 1_000;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The command, path or address the input names; '' when it names none. */
export function summaryOf(input: Record<string, unknown>): string {
  for (const key of ['command', 'file_path', 'notebook_path', 'path', 'url', 'pattern']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return cut(value.trim(), SUMMARY_CHARS);
  }
  return '';
}

/** The whole input as JSON, cut short. */
export function previewOf(input: unknown): string {
  let json: string;
  try {
    json = typeof input === 'string' ? input : JSON.stringify(input) ?? '';
  } catch {
    json = '';
  }
  return cut(json, PREVIEW_CHARS);
}
