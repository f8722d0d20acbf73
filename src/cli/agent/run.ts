// `letagents-desktop agent add|list|pause|resume|stop|run|remove`: managed agents from the
// command line, through the running app (which owns the database and runs the turns).
import { relative, resolve, isAbsolute } from 'node:path';
import type { ManagedAgent, ProviderInfo } from '../../shared/model/managedAgents';
import { MANAGED_STATE_WORDS } from '../../shared/model/agentState';
import { findPackageRoot } from '../../main/setup/helperCommand';
import { helperDataDir } from '../../shared-node/dataPaths';
import { wantsHelp } from '../help';
import { callApp } from '../appApi';
import { AppRefusal, choose, failureExit, count, findByName, required, textOrFile, unwrap } from '../appCommand';
import { didYouMean, parseCommandArgs, UsageError } from '../usage';

/** A name as the command line writes it: read-only for read_only. */
const dashed = (id: string) => id.replaceAll('_', '-');

/**
 * What --provider and --permissions take (each also with "_" for "-") and the id each means, and
 * the usage naming them: from the providers registry and the shared model, loaded only for `add`
 * and help, so list, run and the rest start without the providers' code.
 */
async function choices(): Promise<{ providers: Record<string, string>; permissions: Record<string, string>; usage: string }> {
  const [{ cliNamesOf, PROVIDER_LIST }, { AgentPermissions }] = await Promise.all([
    import('../../main/agents/providers'), import('../../shared/model/managedAgents'),
  ]);
  return {
    providers: Object.fromEntries(PROVIDER_LIST.flatMap((p) => cliNamesOf(p).map((name) => [name, p.id]))),
    permissions: Object.fromEntries(AgentPermissions.options.flatMap((p) => [[dashed(p), p], [p, p]])),
    usage: agentUsage(PROVIDER_LIST.map((p) => dashed(p.id)), AgentPermissions.options.map(dashed)),
  };
}

const agentUsage = (providers: string[], permissions: string[]) => `usage: letagents-desktop agent <action> [options] [--data-dir D] [--json]

  list                          managed agents: state, budget use, last turn
  add --room ROOM --name NAME --provider ${providers.join('|')}
      [--team TEAM] [--folder DIR] [--instructions TEXT | --instructions-file FILE|-] [--model NAME]
      [--permissions ${permissions.join('|')}]
      [--turns-per-hour N|none] [--daily-tokens N|none]
                                add one (room: this computer's, else a team's of that id;
                                --team picks the team's; folder: the current one, said when chosen;
                                required inside LetAgents' own checkout; permissions: read-only;
                                instructions from a file or stdin (-) stay off the command
                                line, which other users of this computer can read)
  pause AGENT                   no new turns until resumed
  resume AGENT                  takes turns again (a fresh budget after a hold)
  stop AGENT                    ends the running turn now
  run AGENT                     a turn now
  remove AGENT [--discard]      stops it and removes it from its room; its worktree and branch go
                                too, refused while they hold unmerged work unless --discard
AGENT is the agent's name or id. Warnings (e.g. its CLI is not signed in) go to stderr, and
with --json into the answer's "warnings" too.
`;

const ACTIONS = { pause: 'agents.pause', resume: 'agents.resume', stop: 'agents.stop', run: 'agents.runNow', remove: 'agents.remove' } as const;

export async function runAgent(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === undefined || action === 'help' || wantsHelp(argv)) {
    (action === undefined ? process.stderr : process.stdout).write((await choices()).usage);
    return action === undefined ? 2 : 0;
  }
  try {
    const { values, positionals } = parseCommandArgs(rest, {
      'data-dir': { type: 'string' }, json: { type: 'boolean', default: false },
      room: { type: 'string' }, team: { type: 'string' }, name: { type: 'string' }, provider: { type: 'string' }, folder: { type: 'string' },
      instructions: { type: 'string' }, 'instructions-file': { type: 'string' }, model: { type: 'string' }, permissions: { type: 'string' },
      'turns-per-hour': { type: 'string' }, 'daily-tokens': { type: 'string' }, discard: { type: 'boolean', default: false },
    }, true);
    if (values.discard && action !== 'remove') throw new UsageError('--discard goes only with remove');
    const dataDir = helperDataDir(values['data-dir']);
    const call = async <T>(method: string, input: unknown): Promise<T> => unwrap<T>(await callApp(dataDir, method, input));
    const print = (value: unknown, text: string) => process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : text);

    if (action === 'list') {
      const agents = await call<ManagedAgent[]>('agents.list', {});
      print(agents, agents.length === 0 ? 'No managed agents yet. Add one with `letagents-desktop agent add`.\n' : table(agents));
      return 0;
    }
    if (action === 'add') {
      const { providers, permissions } = await choices();
      const folder = resolve(values.folder ?? chosenFolder());
      const instructions = textOrFile('instructions', values.instructions, values['instructions-file']);
      const input = {
        provider: choose('--provider', values.provider, providers),
        folder,
        roomId: required('--room', values.room),
        ...(values.team !== undefined ? { place: values.team } : {}),
        name: required('--name', values.name),
        ...(instructions !== undefined ? { instructions } : {}),
        ...(values.model !== undefined ? { model: values.model } : {}),
        permissions: choose('--permissions', values.permissions ?? 'read-only', permissions),
        ...(values['turns-per-hour'] !== undefined ? { turnsPerHour: count('--turns-per-hour', values['turns-per-hour']) } : {}),
        ...(values['daily-tokens'] !== undefined ? { dailyTokenCap: count('--daily-tokens', values['daily-tokens']) } : {}),
      };
      const agent = await call<ManagedAgent>('agents.add', input);
      // Checked up front where the CLI can tell (not signed in); adding works anyway.
      const provider = (await call<ProviderInfo[]>('agents.providers', {})).find((p) => p.id === agent.provider);
      const lines = [
        `Added ${agent.name} (${agent.providerName}) to ${agent.roomName}${agent.place === 'local' ? '' : ` (team ${agent.place}; its team sees it run on this computer)`}; it takes a turn when something there needs it.`,
        ...(values.folder === undefined ? [`It works in ${folder} (the current folder; --folder chooses another).`] : []),
        ...(provider?.path ? [`The app runs ${agent.providerName} from ${provider.path} (found on the app's PATH).`] : []),
      ];
      const warnings = provider?.warning ? [provider.warning] : [];
      // On stderr in both forms, so a script reading the JSON still shows them; in the JSON too.
      for (const warning of warnings) process.stderr.write(`Warning: ${warning}\n`);
      print({ ...agent, warnings }, `${lines.join('\n')}\n`);
      return 0;
    }
    if (action !== undefined && action in ACTIONS) {
      const agent = await findAgent(await call<ManagedAgent[]>('agents.list', {}), required('AGENT', positionals[0]));
      const input = action === 'remove' && values.discard ? { agentId: agent.agentId, discardWork: true } : { agentId: agent.agentId };
      const result = await call<ManagedAgent | { removed: boolean }>(ACTIONS[action as keyof typeof ACTIONS], input).catch((error: unknown) => {
        // The app's words are for the window's confirm dialog; here the confirmation is a flag.
        if (error instanceof AppRefusal && error.code === 'unmerged_work') {
          throw new AppRefusal(`${error.message} To throw it away: letagents-desktop agent remove ${positionals[0]} --discard`);
        }
        throw error;
      });
      print(result, 'state' in result ? `${agent.name}: ${stateText(result)}\n` : `Removed ${agent.name}.\n`);
      return 0;
    }
    throw new UsageError(`unknown action "${action}"${didYouMean(action, ['list', 'add', ...Object.keys(ACTIONS)])}`);
  } catch (error) {
    return failureExit('agent', action, error);
  }
}

/** The current folder, unless it is inside LetAgents' own checkout (run there through npx, it is not the project the person meant). */
function chosenFolder(): string {
  const cwd = process.cwd();
  let root: string | null;
  try {
    root = findPackageRoot();
  } catch {
    root = null;
  }
  const inside = root !== null && !relative(root, cwd).startsWith('..') && !isAbsolute(relative(root, cwd));
  if (inside) throw new UsageError(`--folder is required here: ${cwd} is inside LetAgents' own checkout (${root}); say which folder the agent works in`);
  return cwd;
}

function findAgent(agents: ManagedAgent[], wanted: string): ManagedAgent {
  return findByName(agents, wanted, (a) => a.agentId, (a) => a.name, (a) => `${a.agentId} (${a.roomName})`, 'managed agent', 'letagents-desktop agent list');
}

/** The same label as the Agents page ("Taking a turn", not `running`). */
function stateText(agent: ManagedAgent): string {
  if (agent.state === 'cant_run' && agent.cantRun) return `${MANAGED_STATE_WORDS.cant_run}: ${agent.cantRun.reason}`;
  const label = MANAGED_STATE_WORDS[agent.state];
  const waiting = agent.waitingMessages > 0 ? ` (${agent.waitingMessages} waiting)` : '';
  const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
  if (agent.state === 'limited' && agent.resumesAt) return `${label} after ${when(agent.resumesAt)}${waiting}`;
  const retry = agent.retryAt ? ` (rate limited: tries again at ${when(agent.retryAt)})` : '';
  return (agent.state === 'held' && agent.heldReason ? `${label} (${agent.heldReason})` : label) + retry + waiting;
}

function table(agents: ManagedAgent[]): string {
  const rows = [
    ['NAME', 'PROVIDER', 'ROOM', 'STATE', 'TURNS (HOUR)', 'TOKENS (TODAY)', 'ID'],
    ...agents.map((a) => [
      a.name, a.providerName, a.roomName, stateText(a),
      `${a.usage.turnsLastHour}/${a.turnsPerHour ?? '∞'}`, `${a.usage.tokensToday}/${a.dailyTokenCap ?? '∞'}`, a.agentId,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const fixes = agents.filter((a) => a.cantRun).map((a) => `\n${a.name} can't run: ${a.cantRun!.reason}. ${a.cantRun!.fix}`);
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n' + fixes.map((f) => `${f}\n`).join('');
}
