// The `letagents-desktop` command: serve | open | stop | mcp | doctor | agent | team (architecture.md §3).
// Each subcommand is loaded on demand so the stdio helper stays small and fast. Help for
// every command comes from the table in help.ts.
import { commandHelp, ownsHelp, usage, wantsHelp } from './help';

const [command, ...rest] = process.argv.slice(2);

async function main(): Promise<number> {
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`letagents-desktop ${(await import('../main/version')).APP_VERSION}\n`);
    return 0;
  }
  // agent and team print their own, longer help (per action).
  const help = command !== undefined && !ownsHelp(command) && wantsHelp(rest) ? commandHelp(command) : null;
  if (help) {
    process.stdout.write(help);
    return 0;
  }
  switch (command) {
    case 'mcp':
      return (await import('./helper/main')).runHelper(rest);
    case 'serve':
      return (await import('./serve')).runServe(rest);
    case 'open':
      return (await import('./open')).runOpen(rest);
    case 'stop':
      return (await import('./stop')).runStop(rest);
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
      process.stdout.write((rest[0] && commandHelp(rest[0])) || usage());
      return 0;
    default:
      process.stderr.write(`letagents-desktop: unknown command "${command}"\n${usage()}`);
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
