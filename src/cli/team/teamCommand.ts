// `letagents-desktop team add|list|test|remove|patterns|default`: the team registry from
// the command line. It works on the keychain and the data folder directly, with or without
// a running app; a running app is told through `teams-changed` and shows the change at once.
import { isDomainError } from '../../main/domain/errors';
import { resolveDataDir } from '../../main/paths';
import { checkTeamUrl, withListenUrl } from '../../main/store/postgres/teamUrl';
import { teamErrors } from '../../main/teams/teamErrors';
import { checkTeamName, LOCAL_PLACE, teamUrlEnvName } from '../../main/teams/teamNames';
import { KeychainUnavailableError } from '../../main/secrets/secretStore';
import type { TeamRegistry } from '../../main/teams/teamRegistry';
import { announceTeamsChanged } from '../../main/teams/teamsChanged';
import { openCliTeams } from './cliTeams';
import { formatProbe, formatTeamList } from './teamOutput';
import { readUrlFromStdin } from './readUrl';
import { wantsHelp } from '../help';
import { didYouMean, parseCommandArgs, UsageError, usageErrorText } from '../usage';
import { appTeamSource, connectionWords, runningAppTeams, shellOnlyNote, shellOnlyTeams } from './appTeams';

export const TEAM_USAGE = `usage: letagents-desktop team <command> [options]

A team shares rooms across machines through one PostgreSQL database the team runs.

  team add NAME --url-stdin [--listen-url URL] [--allow-plaintext] [--data-dir D]
  team add NAME --url URL [--listen-url URL] [--allow-plaintext] [--data-dir D]
         test the connection, set the team database up, and keep the URL in the OS
         keychain. Prefer --url-stdin (the URL is read from standard input, or asked
         for without echo): with --url the password is on the command line, where
         other users can see it in the process list, and in your shell history.
         A URL to another computer must ask for TLS (?sslmode=verify-full);
         --allow-plaintext allows an unencrypted connection knowingly.
         --listen-url URL: when the URL is a transaction-mode pooler (PgBouncer,
         Supabase's pooler on port 6543, RDS Proxy), where LISTEN does not work,
         the direct endpoint for LISTEN (one connection per app; queries still go
         through the pooler). With --url-stdin it may also be part of that URL as
         listen_url=<URL-encoded>. Pool size and idle time: pool_max (default 4) and
         pool_idle_seconds (default 10) parameters of the URL.
  team list [--json] [--data-dir D]
         every team: URL without its password, where the URL comes from, repo
         patterns, and the default place of new rooms. Asks the running app when
         there is one (its environment, read when it started), else reads the
         data folder and this shell's environment
  team test NAME [--data-dir D]
         reachable, schema version, latency, TLS (changes nothing)
  team remove NAME [--data-dir D]
         forget the team on this computer; its rooms stay in its database
  team patterns NAME [PATTERN ...] [--clear] [--data-dir D]
         repo rooms whose id matches go to the team, e.g. github.com/acme/*
         (* within one part, ** as the last part for any depth). Without
         patterns it shows the team's; --clear removes them all
  team default PLACE [--data-dir D]
         where new rooms go when no pattern decides: local or a team's name

Hosts without a keychain: set LETAGENTS_TEAM_URL_<NAME> (upper case, "-" as "_")
instead of \`team add\`; it is used and never stored.
`;

const SUBCOMMANDS = ['add', 'list', 'test', 'remove', 'patterns', 'default'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];


export async function runTeam(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined) {
    process.stderr.write(TEAM_USAGE);
    return 2;
  }
  // `team --help`, and `team --data-dir D --help` (help before an action).
  if (sub === 'help' || (!SUBCOMMANDS.includes(sub as Subcommand) && wantsHelp(argv))) {
    process.stdout.write(TEAM_USAGE);
    return 0;
  }
  if (!SUBCOMMANDS.includes(sub as Subcommand)) {
    process.stderr.write(`letagents-desktop team: unknown command "${sub}"${didYouMean(sub, SUBCOMMANDS)}\n${TEAM_USAGE}`);
    return 2;
  }
  try {
    return await run(sub as Subcommand, rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(usageErrorText(`team ${sub}`, error).replace(`team ${sub} --help`, 'team --help'));
      return 2;
    }
    const keychain = keychainProblemOf(error);
    if (keychain) {
      process.stderr.write(keychainAdvice(sub, argv[1], keychain));
      return 1;
    }
    if (isDomainError(error) || error instanceof Error) {
      process.stderr.write(`letagents-desktop team ${sub}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function run(sub: Subcommand, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    'data-dir': { type: 'string' },
    url: { type: 'string' },
    'url-stdin': { type: 'boolean', default: false },
    'allow-plaintext': { type: 'boolean', default: false },
    'listen-url': { type: 'string' },
    json: { type: 'boolean', default: false },
    clear: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, true);
  if (values.help) {
    process.stdout.write(TEAM_USAGE);
    return 0;
  }
  if (sub !== 'add' && (values.url !== undefined || values['url-stdin'] || values['allow-plaintext'] || values['listen-url'] !== undefined)) {
    throw new UsageError('--url, --url-stdin, --listen-url and --allow-plaintext belong to `team add`.');
  }
  if (sub !== 'list' && values.json) throw new UsageError('--json belongs to `team list`.');
  if (sub !== 'patterns' && values.clear) throw new UsageError('--clear belongs to `team patterns`.');
  const dataDir = resolveDataDir(values['data-dir']);
  const wantsName = sub === 'list' ? 0 : sub === 'patterns' ? -1 : 1;
  if (wantsName === 0 && positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}".`);
  if (wantsName !== 0 && positionals.length === 0) throw new UsageError(sub === 'default' ? 'which place? local or a team name.' : 'which team? Give its name.');
  if (wantsName === 1 && positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}".`);
  const [name, ...patterns] = positionals;

  if (sub === 'add') {
    if ((values.url === undefined) === !values['url-stdin']) throw new UsageError('give the URL with --url-stdin (recommended) or --url, not both.');
    const given = values.url ?? (await readUrlFromStdin());
    if (!given) throw new UsageError('no URL was given on standard input.');
    const url = values['listen-url'] !== undefined ? withListenUrl(given, values['listen-url']) : given;
    // Bad input is refused before the data folder is touched.
    checkTeamName(name);
    checkTeamUrl(url, { allowPlaintext: values['allow-plaintext'] });
    return change(dataDir, null, async (registry) => {
      const added = await registry.add({ name, url, allowPlaintext: values['allow-plaintext'] });
      await added.storage.close();
      process.stdout.write(
        `Added team "${added.team.name}": ${added.team.shownUrl}\n${formatProbe(added.probe)}\n` +
          `The URL is in the OS keychain (service "LetAgents Desktop"); the team database is set up.\n` +
          `Next: \`letagents-desktop team patterns ${added.team.name} github.com/your-org/*\` sends those repos' rooms to the team, ` +
          `or \`letagents-desktop team default ${added.team.name}\` sends every new room there.\n`,
      );
      return 0;
    });
  }
  if (sub === 'remove') {
    return change(dataDir, name, async (registry) => {
      const removed = await registry.remove(name);
      process.stdout.write(`Removed team "${removed.name}" from this computer (its URL is gone from the keychain; its rooms stay in its database).\n`);
      if (removed.stillFromEnvironment) process.stdout.write(`${removed.stillFromEnvironment} still gives this team; unset it too to stop using it.\n`);
      return 0;
    });
  }
  if (sub === 'patterns' && patterns.length === 0 && !values.clear) return showPatterns(dataDir, name);
  if (sub === 'patterns') {
    if (values.clear && patterns.length > 0) throw new UsageError('give patterns, or --clear to remove them all, not both.');
    return change(dataDir, name, async (registry) => {
      const team = await registry.setPatterns(name, patterns);
      process.stdout.write(team.patterns.length > 0 ? `Repo rooms matching ${team.patterns.join(', ')} go to "${team.name}".\n` : `"${team.name}" has no repo patterns now.\n`);
      return 0;
    });
  }
  if (sub === 'default') {
    return change(dataDir, name.toLowerCase() === LOCAL_PLACE ? null : name, async (registry) => {
      const place = await registry.setDefault(name);
      process.stdout.write(place === 'local' ? 'New rooms go to this computer unless a pattern decides.\n' : `New rooms go to the team "${place}" unless a pattern decides.\n`);
      return 0;
    });
  }
  const { registry, close } = openCliTeams(dataDir, 'read');
  try {
    if (sub === 'list') return await listTeams(dataDir, registry, values.json);
    const team = await registry.find(name);
    if (!team) throw teamErrors.notFound(name);
    const probe = await registry.test(team.name);
    process.stdout.write(`Team "${team.name}": ${team.shownUrl} (URL from ${team.variable ?? 'the keychain'})\n${formatProbe(probe)}\n`);
    return probe.reachable && (probe.schemaVersion ?? 0) <= probe.appSchemaVersion ? 0 : 1;
  } finally {
    await close();
  }
}

function keychainProblemOf(error: unknown): { reason: string; fix: string } | null {
  if (error instanceof KeychainUnavailableError) return error;
  const extra = isDomainError(error) && error.code === 'keychain_unavailable' ? error.extra : undefined;
  return typeof extra?.reason === 'string' && typeof extra.fix === 'string' ? { reason: extra.reason, fix: extra.fix } : null;
}

/** No keychain (a server, a container): one short line, the fix, and the way servers give a URL. */
function keychainAdvice(sub: string, name: string | undefined, error: { reason: string; fix: string }): string {
  const variable = teamUrlEnvName(name && !name.startsWith('-') ? name : 'NAME');
  return `letagents-desktop team ${sub}: the OS keychain is unavailable: ${error.reason}.\n` +
    `  fix: ${error.fix}\n` +
    `  on a server without a keychain: set ${variable}=postgres://… in the app's environment instead of \`team add\` (it is used and never stored).\n`;
}

/** `team list`: the running app's teams when it runs (it read its environment at start), else this shell's view. */
async function listTeams(dataDir: string, registry: TeamRegistry, json: boolean): Promise<number> {
  const shell = await registry.list();
  const app = await runningAppTeams(dataDir);
  const problems = await registry.environmentProblems();
  if (json) {
    const teams = app
      ? app.teams.map((t) => ({ name: t.name, url: t.url, from: t.variable ? 'environment' : 'keychain', variable: t.variable, patterns: t.patterns, connection: t.connection }))
      : shell.map((t) => ({ name: t.name, url: t.shownUrl, from: t.variable ? 'environment' : 'keychain', variable: t.variable, patterns: [...t.patterns], connection: null }));
    const out = {
      source: app ? 'running-app' : 'data-folder',
      defaultPlace: app ? app.defaultPlace : await registry.defaultPlace(),
      teams,
      notInApp: app ? shellOnlyTeams(shell, app).map((t) => ({ name: t.name, variable: t.variable })) : [],
      ignoredVariables: problems.map((p) => ({ variable: p.variable, problem: p.problem })),
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  if (app) {
    process.stdout.write(`Teams of the LetAgents app running for ${dataDir} (URLs from its environment were read when it started):\n`);
    process.stdout.write(formatTeamList(
      app.teams.map((t) => ({ name: t.name, url: t.url, from: appTeamSource(t), patterns: t.patterns, state: connectionWords(t) })),
      app.defaultPlace,
    ));
    for (const team of shellOnlyTeams(shell, app)) process.stdout.write(`${shellOnlyNote(team)}\n`);
  } else {
    process.stdout.write(`No app is running for ${dataDir}: teams as this shell sees them (the data folder, the keychain and this shell's environment):\n`);
    process.stdout.write(formatTeamList(
      shell.map((t) => ({ name: t.name, url: t.shownUrl, from: t.variable ? `${t.variable} in this shell` : 'keychain', patterns: t.patterns, state: null })),
      await registry.defaultPlace(),
    ));
  }
  for (const problem of problems) process.stdout.write(`Ignored ${problem.variable}: ${problem.problem}\n`);
  return 0;
}

/** `team patterns NAME` with no patterns: shows them, changes nothing. */
async function showPatterns(dataDir: string, name: string): Promise<number> {
  const { registry, close } = openCliTeams(dataDir, 'read');
  try {
    const team = await registry.find(name);
    if (!team) throw teamErrors.notFound(name);
    process.stdout.write(team.patterns.length > 0
      ? `Repo rooms matching ${team.patterns.join(', ')} go to "${team.name}". (\`team patterns ${team.name} --clear\` removes them.)\n`
      : `"${team.name}" has no repo patterns. Add some with \`letagents-desktop team patterns ${team.name} github.com/your-org/*\`.\n`);
    return 0;
  } finally {
    await close();
  }
}

/**
 * Runs a change on the data folder's settings and the keychain, then tells a running app.
 * A change to a team that does not exist is refused before the data folder is touched.
 */
async function change(dataDir: string, team: string | null, fn: (registry: TeamRegistry) => Promise<number>): Promise<number> {
  if (team !== null) {
    const reader = openCliTeams(dataDir, 'read');
    try {
      if (!(await reader.registry.find(team))) throw teamErrors.notFound(team);
    } finally {
      await reader.close();
    }
  }
  const { registry, close } = openCliTeams(dataDir, 'write');
  try {
    const code = await fn(registry);
    announceTeamsChanged(dataDir);
    return code;
  } finally {
    await close();
  }
}
