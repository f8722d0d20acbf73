// The `letagents-desktop` command: serve | open | stop | mcp | doctor | agent | automation | team | phone (architecture.md §3).
// Each subcommand is loaded on demand so the stdio helper stays small and fast. Help for
// every command comes from the table in help.ts.
import { COMMANDS, commandHelp, ownsHelp, usage, wantsHelp } from './help';
import { didYouMean, UsageError, usageErrorText } from './usage';

/**
 * Options every command takes may come before the command too
 * (`letagents-desktop --data-dir D doctor`): they are moved after it.
 */
function commandFirst(argv: string[]): string[] {
  const globals: string[] = [];
  let i = 0;
  while (i < argv.length && (argv[i] === '--data-dir' || argv[i].startsWith('--data-dir='))) {
    globals.push(...(argv[i] === '--data-dir' ? argv.slice(i, i + 2) : [argv[i]]));
    i += argv[i] === '--data-dir' ? 2 : 1;
  }
  return i === 0 ? argv : [...argv.slice(i, i + 1), ...globals, ...argv.slice(i + 1)];
}

const [command, ...rest] = commandFirst(process.argv.slice(2));

async function main(): Promise<number> {
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`letagents-desktop ${(await import('../main/version')).APP_VERSION}\n`);
    return 0;
  }
  // agent, automation, team and phone print their own, longer help (per action).
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
    case 'automation':
      return (await import('./automation/run')).runAutomation(rest);
    case 'team':
      return (await import('./team/teamCommand')).runTeam(rest);
    case 'phone':
      return (await import('./phone/phoneCommand')).runPhone(rest);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write((rest[0] && commandHelp(rest[0])) || usage());
      return 0;
    default: {
      const hint = didYouMean(command, COMMANDS.map((c) => c.name));
      process.stderr.write(`letagents-desktop: unknown command "${command}"${hint}\n${usage()}`);
      return 2;
    }
  }
}

/** Exits once stdout and stderr have flushed (pipes are asynchronous on some platforms). */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main().then(exitAfterFlush, (error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(usageErrorText(command ?? '', error));
    return exitAfterFlush(2);
  }
  process.stderr.write(`letagents-desktop ${command ?? ''}: ${error instanceof Error ? error.message : String(error)}\n`);
  exitAfterFlush(1);
});
