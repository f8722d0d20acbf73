// `letagents-desktop automation list|add|run|pause|resume|remove`: automations from the command
// line, through the running app (which keeps them, and runs them on their schedule or event).
import type { MethodInput } from '../../shared/contract';
import type { Automation, AutomationTrigger, RunStatus } from '../../shared/model/automations';
import type { ManagedAgent } from '../../shared/model/managedAgents';
import { RUN_STATUS_WORDS, missedText } from '../../shared/automationWords';
import { TASK_STATUSES } from '../../shared/taskTransitions';
import { helperDataDir } from '../../shared-node/dataPaths';
import { wantsHelp } from '../help';
import { callApp } from '../appApi';
import { choose, failureExit, count, findByName, required, textOrFile, unwrap } from '../appCommand';
import { didYouMean, parseCommandArgs, UsageError } from '../usage';

export const AUTOMATION_USAGE = `usage: letagents-desktop automation <action> [options] [--data-dir D] [--json]

  list                          automations: trigger, target, next run, last run
  add --room ROOM --name NAME (--agent AGENT | --mention NAME)
      (--instructions TEXT | --instructions-file FILE|-)
      (--every 15m|2h|1d | --daily HH:MM | --weekdays HH:MM | --cron "M H DOM MON DOW"
       | --on task-status:STATUS | --on task-blocked | --on decision-answered
       | --on pr-check-failed | --on pr-review-requested)
      [--time-zone ZONE] [--catch-up once|skip] [--place PLACE]
      [--max-turns N] [--max-tokens N|none] [--permissions read-only|edit] [--fresh-worktree]
                                add one: a managed agent (its room) or a mention posted in the
                                room for whichever agents it reaches; schedules in ZONE (default:
                                this computer's); missed runs catch up once (or skip)
  run AUTOMATION                a run now
  pause AUTOMATION              no new runs until resumed
  resume AUTOMATION             runs again from its next time or event
  remove AUTOMATION             deletes it and its runs
AUTOMATION is its name or id. STATUS: ${TASK_STATUSES.join(', ')}.
`;

const EVENTS: Record<string, AutomationTrigger['type']> = {
  'task-blocked': 'task_blocked', 'decision-answered': 'decision_answered', 'pr-check-failed': 'pr_check_failed', 'pr-review-requested': 'pr_review_requested',
};
const PERMISSIONS: Record<string, string> = { 'read-only': 'read_only', read_only: 'read_only', edit: 'edit' };
const ACTIONS = { run: 'automations.runNow', pause: 'automations.pause', resume: 'automations.resume', remove: 'automations.remove' } as const;

export async function runAutomation(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === undefined || action === 'help' || wantsHelp(argv)) {
    (action === undefined ? process.stderr : process.stdout).write(AUTOMATION_USAGE);
    return action === undefined ? 2 : 0;
  }
  try {
    const { values, positionals } = parseCommandArgs(rest, {
      'data-dir': { type: 'string' }, json: { type: 'boolean', default: false },
      room: { type: 'string' }, place: { type: 'string' }, name: { type: 'string' }, agent: { type: 'string' }, mention: { type: 'string' },
      instructions: { type: 'string' }, 'instructions-file': { type: 'string' },
      every: { type: 'string' }, daily: { type: 'string' }, weekdays: { type: 'string' }, cron: { type: 'string' }, on: { type: 'string' },
      'time-zone': { type: 'string' }, 'catch-up': { type: 'string' },
      'max-turns': { type: 'string' }, 'max-tokens': { type: 'string' }, permissions: { type: 'string' }, 'fresh-worktree': { type: 'boolean' },
    }, true);
    const dataDir = helperDataDir(values['data-dir']);
    const call = async <T>(method: string, input: unknown): Promise<T> => unwrap<T>(await callApp(dataDir, method, input));
    const print = (value: unknown, text: string) => process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : text);

    if (action === 'list') {
      const automations = await call<Automation[]>('automations.list', {});
      print(automations, automations.length === 0 ? 'No automations yet. Add one with `letagents-desktop automation add`.\n' : table(automations));
      return 0;
    }
    if (action === 'add') {
      const target = await targetOf(values.agent, values.mention, () => call<ManagedAgent[]>('agents.list', {}));
      const instructions = required('--instructions', textOrFile('instructions', values.instructions, values['instructions-file']));
      const input: MethodInput<'automations.add'> = {
        name: required('--name', values.name),
        roomId: required('--room', values.room),
        ...(values.place !== undefined ? { place: values.place } : {}),
        target,
        instructions,
        trigger: triggerOf(values),
        limits: {
          ...(values['max-turns'] !== undefined ? { maxTurns: count('--max-turns', values['max-turns']) ?? 1 } : {}),
          ...(values['max-tokens'] !== undefined ? { maxTokens: count('--max-tokens', values['max-tokens']) } : {}),
          ...(values.permissions !== undefined ? { permissions: choose('--permissions', values.permissions, PERMISSIONS) as 'read_only' | 'edit' } : {}),
          ...(values['fresh-worktree'] ? { freshWorktree: true } : {}),
        },
      };
      const added = await call<Automation>('automations.add', input);
      print(added, `Added "${added.name}" in ${added.roomName}: ${added.triggerText.charAt(0).toLowerCase()}${added.triggerText.slice(1)}, ${targetText(added)}.${added.nextRunAt ? ` Next run ${localTime(added.nextRunAt)}.` : ''}\n${added.notice ? `Note: ${added.notice}\n` : ''}`);
      return 0;
    }
    if (action !== undefined && action in ACTIONS) {
      const automation = findAutomation(await call<Automation[]>('automations.list', {}), required('AUTOMATION', positionals[0]));
      const result = await call<Automation | { removed: boolean }>(ACTIONS[action as keyof typeof ACTIONS], { automationId: automation.automationId });
      print(result, 'state' in result ? `"${result.name}": ${stateText(result)}${action === 'run' ? `; ${lastRunText(result)}` : ''}\n` : `Removed "${automation.name}".\n`);
      return 0;
    }
    throw new UsageError(`unknown action "${action}"${didYouMean(action, ['list', 'add', ...Object.keys(ACTIONS)])}`);
  } catch (error) {
    return failureExit('automation', action, error);
  }
}

async function targetOf(agent: string | undefined, mention: string | undefined, agents: () => Promise<ManagedAgent[]>): Promise<MethodInput<'automations.add'>['target']> {
  if ((agent === undefined) === (mention === undefined)) throw new UsageError('give --agent AGENT or --mention NAME (one of them)');
  if (mention !== undefined) return { kind: 'mention', handle: mention };
  const found = findByName(await agents(), agent!, (a) => a.agentId, (a) => a.name, (a) => `${a.agentId} (${a.roomName})`, 'managed agent', 'letagents-desktop agent list');
  return { kind: 'agent', agentId: found.agentId };
}

type TriggerOptions = { every?: string; daily?: string; weekdays?: string; cron?: string; on?: string; 'time-zone'?: string; 'catch-up'?: string };

/** Exactly one of --every, --daily, --weekdays, --cron and --on. */
function triggerOf(values: TriggerOptions): AutomationTrigger {
  const given = (['every', 'daily', 'weekdays', 'cron', 'on'] as const).filter((k) => values[k] !== undefined);
  if (given.length !== 1) throw new UsageError('give one of --every, --daily, --weekdays, --cron and --on (when it runs)');
  const timeZone = values['time-zone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  const catchUp = choose('--catch-up', values['catch-up'] ?? 'once', { once: 'once', skip: 'skip' }) as 'once' | 'skip';
  const schedule = (s: Extract<AutomationTrigger, { type: 'schedule' }>['schedule']): AutomationTrigger => ({ type: 'schedule', schedule: s, timeZone, catchUp });
  switch (given[0]) {
    case 'every':
      return schedule({ kind: 'interval', minutes: minutesOf(values.every!) });
    case 'daily':
      return schedule({ kind: 'daily', time: values.daily! });
    case 'weekdays':
      return schedule({ kind: 'weekdays', time: values.weekdays! });
    case 'cron':
      return schedule({ kind: 'cron', expression: values.cron! });
    case 'on': {
      const on = values.on!.toLowerCase();
      if (on.startsWith('task-status:')) {
        const status = on.slice('task-status:'.length).replace(/-/g, '_');
        if (!(TASK_STATUSES as readonly string[]).includes(status)) throw new UsageError(`--on task-status: takes one of ${TASK_STATUSES.join(', ')}, not "${status}"`);
        return { type: 'task_status', status: status as (typeof TASK_STATUSES)[number] };
      }
      const type = EVENTS[on];
      if (!type) throw new UsageError(`--on must be task-status:STATUS or one of ${Object.keys(EVENTS).join(', ')}`);
      return { type } as AutomationTrigger;
    }
  }
}

/** "15m", "2h", "1d" (or a number of minutes). */
function minutesOf(text: string): number {
  const m = /^(\d+)\s*(m|min|minutes?|h|hours?|d|days?)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--every takes a number with m, h or d (15m, 2h, 1d), not "${text}"`);
  const unit = (m[2] ?? 'm')[0].toLowerCase();
  return Number(m[1]) * (unit === 'd' ? 24 * 60 : unit === 'h' ? 60 : 1);
}

function findAutomation(automations: Automation[], wanted: string): Automation {
  return findByName(automations, wanted, (a) => a.automationId, (a) => a.name, (a) => `${a.automationId} (${a.roomName})`, 'automation', 'letagents-desktop automation list');
}

/** "2026-05-04 14:00" in this computer's time zone. */
function localTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const targetText = (a: Automation) => (a.target.kind === 'agent' ? `for ${a.target.name}` : `mentioning @${a.target.handle}`);

function stateText(a: Automation): string {
  if (a.state === 'paused') return 'Paused';
  return a.running ? 'Active (running now)' : a.notice ? `Active (${a.notice})` : 'Active';
}

function lastRunText(a: Automation): string {
  const run = a.lastRun;
  if (!run) return 'no run yet';
  const words = RUN_STATUS_WORDS[run.status as RunStatus];
  const tokens = run.inputTokens + run.outputTokens > 0 ? `, ${(run.inputTokens + run.outputTokens).toLocaleString('en-US')} tokens` : '';
  return `run #${run.number} ${words.toLowerCase()}${run.reason ? ` (${run.reason})` : ''}${tokens}`;
}

function table(automations: Automation[]): string {
  const rows = [
    ['NAME', 'TRIGGER', 'TARGET', 'ROOM', 'STATE', 'NEXT RUN', 'LAST RUN', 'ID'],
    ...automations.map((a) => [
      a.name, a.triggerText, targetText(a), a.roomName, stateText(a), a.nextRunAt ? localTime(a.nextRunAt) : '—', lastRunText(a), a.automationId,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const missed = automations.filter((a) => a.missed).map((a) => `"${a.name}": ${missedText(a.missed!.count, localTime(a.missed!.lastAt))}\n`);
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n' + missed.join('');
}
