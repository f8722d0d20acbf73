// Tool calls in a managed agent's activity as people read them (issue 35): "Write notes.md",
// "Bash: npm test", "send_message: "The notes are ready."" rather than a line of JSON holding
// the worktree's full path. Paths inside the folder it works in read relative to it.

/** Keys whose value is the one thing worth saying about a call, in this order. */
const MAIN_KEYS = ['file_path', 'filePath', 'absolute_path', 'notebook_path', 'path', 'command', 'cmd', 'pattern', 'query', 'url', 'text', 'title', 'task_id', 'room'];
/** Files read as the call's object ("Write notes.md"); words are quoted ('send_message: "…"'). */
const PATH_KEYS = new Set(['file_path', 'filePath', 'absolute_path', 'notebook_path', 'path']);
const WORD_KEYS = new Set(['text', 'title']);
/** Keys people never need to read (handles, long ids). */
const HIDDEN_KEYS = new Set(['worker_id', 'agent_session_id', 'description', 'content', 'old_string', 'new_string', 'edits']);
const VALUE_CHARS = 120;

/** `text` with `folder` (and anything under it) written relative to it. */
export function relativeToFolder(text: string, folder: string): string {
  const root = folder.replace(/\/+$/, '');
  if (root === '') return text;
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}/`, 'g'), '').replace(new RegExp(`${escaped}(?![\\w.-])`, 'g'), '.');
}

const short = (value: string) => {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length <= VALUE_CHARS ? flat : `${flat.slice(0, VALUE_CHARS)}…`;
};

const said = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
};

/** One tool call as a line: the tool and what it was called on, relative to `folder`. */
export function toolCallText(tool: string, input: string, folder: string): string {
  if (input === '') return tool;
  let args: unknown;
  try {
    args = JSON.parse(input);
  } catch {
    // Not JSON (a shell command as given, or a preview cut short): the text itself.
    return `${tool}: ${short(relativeToFolder(input, folder))}`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return `${tool}: ${short(relativeToFolder(input, folder))}`;
  const entries = Object.entries(args as Record<string, unknown>).filter(([key]) => !HIDDEN_KEYS.has(key));
  const main = MAIN_KEYS.map((key) => entries.find(([k]) => k === key)).find((entry) => entry && said(entry[1]) !== null);
  if (main) {
    const value = short(relativeToFolder(said(main[1])!, folder));
    if (PATH_KEYS.has(main[0])) return `${tool} ${value}`;
    return WORD_KEYS.has(main[0]) ? `${tool}: "${value}"` : `${tool}: ${value}`;
  }
  const rest = entries.flatMap(([key, value]) => (said(value) === null ? [] : [`${key} ${short(relativeToFolder(said(value)!, folder))}`])).slice(0, 2);
  return rest.length === 0 ? tool : `${tool}: ${rest.join(', ')}`;
}
