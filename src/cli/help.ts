// The command line's help in one table: `letagents-desktop --help`, `<command> --help`
// (exit 0) and the usage printed after a mistake all come from COMMANDS. A new command
// adds its row here and its case in index.ts; nothing else needs to know about help.

export interface CommandHelp {
  readonly name: string;
  /** The options, as typed after the command name. */
  readonly options: string;
  /** One or two lines: what it does. */
  readonly summary: string;
  /** More detail, shown by `<command> --help` only. */
  readonly details?: string;
  /** The command prints its own help (per action): `<command> --help` reaches it. */
  readonly ownHelp?: boolean;
}

export const COMMANDS: CommandHelp[] = [
  {
    name: 'serve',
    options: '[--data-dir D] [--host 127.0.0.1] [--port N] [--json] [--open] [--idle-exit SECONDS]',
    summary: 'run the app headless and serve the UI and MCP on 127.0.0.1',
    details:
      'Without --port it takes the port it had last time for this data folder when that port is free\n' +
      '(so an open tab finds it again), else a free one; --port 0 always picks a free one.\n' +
      '--json prints one line {"ui_url","mcp_url","socket","data_dir"}; --open opens the UI in your\n' +
      'browser, or the app already running for the folder. --idle-exit ends it after that many seconds\n' +
      "with no agent, managed agent or browser tab (an agent's helper starts it so, with 600).\n" +
      'It listens on 127.0.0.1 only. On a remote machine: serve --port 7420 there, then on your computer\n' +
      '`ssh -N -L 7420:127.0.0.1:7420 you@that-machine` and open the printed one-time link in your browser.',
  },
  {
    name: 'open',
    options: '[--data-dir D] [--print]',
    summary: "open the running app's UI in your browser (a fresh one-time link)",
    details: '--print prints the link instead of opening it; the link is printed too when no browser could be opened.',
  },
  {
    name: 'stop',
    options: '[--data-dir D]',
    summary: 'stop the app running for the data folder (serve or the desktop app)',
    details:
      "Agents' helpers keep their agents connected meanwhile (their calls say LetAgents is not\n" +
      'running) and reconnect when the app runs again; they do not start a stopped app themselves.\n' +
      "An app an agent's helper started stops by itself after 10 min with no agent and no window.",
  },
  {
    name: 'mcp',
    options: '[--data-dir D] [--ide NAME] [--tools full|core]',
    summary: 'the stdio MCP helper agents start (starts the app if needed);\n--tools core lists only rooms, messages, wait and tasks',
  },
  {
    name: 'doctor',
    options: '[--data-dir D]',
    summary: 'check the data folder, database, agent socket and token, and say what runs',
  },
  {
    name: 'agent',
    options: 'add|list|pause|resume|stop|run|remove … [--data-dir D] [--json]',
    summary: 'managed agents: the app runs an agent CLI when its room needs it',
    ownHelp: true,
  },
  {
    name: 'automation',
    options: 'add|list|run|pause|resume|remove … [--data-dir D] [--json]',
    summary: 'automations: an agent starts on a schedule or an event, and stops at its limits',
    ownHelp: true,
  },
  {
    name: 'team',
    options: 'add|list|test|remove|patterns|default … [--data-dir D]',
    summary: "rooms shared across machines through a team's PostgreSQL database",
    ownHelp: true,
  },
  {
    name: 'phone',
    options: 'on|off|pair|list|revoke … [--data-dir D] [--json]',
    summary: 'your phone learns when an agent needs you, and answers it (HTTPS on your network)',
    ownHelp: true,
  },
];

const HELP_FLAGS = new Set(['--help', '-h']);

/** True when the arguments ask for help (before a `--` that ends the options). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (HELP_FLAGS.has(arg)) return true;
  }
  return false;
}

const indent = (text: string, by: string) => text.split('\n').map((line) => `${by}${line}`).join('\n');

/** The usage of every command, as `letagents-desktop --help` prints it. */
export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.options}\n${indent(c.summary, ' '.repeat(width + 4))}`);
  return `usage: letagents-desktop <command> [options]\n\n${rows.join('\n')}\n\n` +
    '`letagents-desktop <command> --help` says more about one command; `letagents-desktop --version` prints the version.\n';
}

/** True when `<command> --help` is answered by the command itself. */
export function ownsHelp(name: string): boolean {
  return COMMANDS.some((c) => c.name === name && c.ownHelp);
}

/** The help of one command; null when there is no such command. */
export function commandHelp(name: string): string | null {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return null;
  const details = command.details ? `\n\n${command.details}` : '';
  return `usage: letagents-desktop ${command.name} ${command.options}\n\n${command.summary}${details}\n`;
}
