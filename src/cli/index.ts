// The `letagents-desktop` command: serve | open | mcp | doctor | agent | team (architecture.md §3).
// Each subcommand is loaded on demand so the stdio helper stays small and fast.
const [command, ...rest] = process.argv.slice(2);

const USAGE = `usage: letagents-desktop <command> [options]

  serve  [--data-dir D] [--host 127.0.0.1] [--port N] [--json] [--open]
         run the app headless and serve the UI and MCP on 127.0.0.1
  open   [--data-dir D]
         open the running app's UI in your browser (a fresh one-time link)
  mcp    [--data-dir D] [--ide NAME] [--tools full|core]
         the stdio MCP helper agents start (starts the app if needed);
         --tools core lists only rooms, messages, wait and tasks
  doctor [--data-dir D]
         check the data folder, database, agent socket and token
  agent  add|list|pause|resume|stop|run|remove … [--data-dir D]
         managed agents: the app runs an agent CLI when its room needs it
  team   add|list|test|remove|patterns|default …   (team --help)
         rooms shared across machines through a team's PostgreSQL database
`;

async function main(): Promise<number> {
  switch (command) {
    case 'mcp':
      return (await import('./helper/main')).runHelper(rest);
    case 'serve':
      return (await import('./serve')).runServe(rest);
    case 'open':
      return (await import('./open')).runOpen(rest);
    case 'doctor':
      return (await import('./doctor/run')).runDoctor(rest);
    case 'agent':
      return (await import('./agent/run')).runAgent(rest);
    case 'team':
      return (await import('./team/teamCommand')).runTeam(rest);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`letagents-desktop: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

/** Exits once stdout and stderr have flushed (pipes are asynchronous on some platforms). */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main().then(exitAfterFlush, (error: unknown) => {
  process.stderr.write(`letagents-desktop ${command ?? ''}: ${error instanceof Error ? error.message : String(error)}\n`);
  exitAfterFlush(1);
});
