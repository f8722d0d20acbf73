// Runs one managed turn: the provider CLI headless in the agent's folder with the turn's
// prompt on stdin, its stream turned into the activity log, and the outcome recorded. A
// saved provider session that cannot be continued is dropped and the turn runs fresh.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ManagedAgentRow } from '../store/managedAgentQueries';
import type { HelperCommand } from '../setup/helperCommand';
import type { Approvals, ShowWait } from '../approvals/approvals';
import { workerSessionId } from '../domain/identity/agentKeys';
import type { Storage } from '../store/port';
import { cantRunOf, type CantRun } from './cantRun';
import { signInCommand, signInState } from './signInCheck';
import { agentTokenPath } from '../paths';
import { providerOf, locateProvider } from './providers';
import { startProviderProcess } from './providerProcess';
import { parseTotals, TurnLog } from './turnLog';
import { recordTurnWithoutReply } from './noReply';
import type { TurnAbortReason } from './turnScheduler';
import { preview } from './providers/streamText';
import { relativeToFolder, toolCallText } from './activityWords';
import type { ActivityEvent, CantRunCause, LostAnswer, Trigger, TurnLimit } from './types';

export interface TurnRunnerDeps {
  readonly store: Storage;
  /** The storage of the agent's room (a team's database for a team room); default `store`. */
  readonly roomStore?: Storage;
  /** The person's environment without the app's own settings. */
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  /** The app's data folder: no turn may read it, and its secrets never enter the activity log. */
  readonly dataDir: string;
  readonly helper: HelperCommand;
  /** This agent's private folder (provider config files). */
  agentDir(agentId: string): string;
  /** Where "Ask me" turns ask the person. */
  readonly approvals: Approvals;
  /** In a team room: shows the team's other machines that the agent waits for an approval (approvalWaitIn). */
  readonly showApprovalWait?: ShowWait;
  /** The provider process of a running turn started (pid) or ended (null). */
  onProcess(agentId: string, pid: number | null): void;
  /** One line on what the agent's files now differ by (its worktree), for the turn's log. */
  changesOfTurn?(): Promise<string | null>;
  /** The turn was opened (its number), before the CLI starts. */
  onOpened?(turn: number): Promise<void>;
  /** How long a CLI may only reconnect, with no other sign of progress, before its turn is ended (default 60 s). */
  readonly reconnectLimitMs?: number;
}

export const DEFAULT_RECONNECT_LIMIT_MS = 60_000;

export interface TurnInput {
  readonly agent: ManagedAgentRow;
  readonly prompt: string;
  readonly triggers: readonly Trigger[];
  /** Its name in the room now (what approval items say). */
  readonly name: string;
}

/** What in a provider's stream shows the agent doing something (a tool's result, its next step). */
const WENT_ON_EVENTS = new Set<ActivityEvent['kind']>(['tool_call', 'tool_result', 'text', 'result']);

const ABORT_TEXT: Record<TurnAbortReason, string> = {
  stopped: 'Stopped by a person.',
  timed_out: 'The turn ran past its time limit and was ended.',
  closing: 'The app closed during this turn.',
};

/**
 * How a turn ended, for the service: `cantRun` when it failed for a reason only the person can
 * fix; `limit` when the provider refused for a limit that passes by itself.
 */
export interface TurnOutcome {
  readonly turn: number;
  readonly status: 'done' | 'failed' | 'stopped' | 'timed_out';
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
  readonly cantRun: CantRun | null;
  readonly limit: TurnLimit | null;
}

export async function runTurn(deps: TurnRunnerDeps, input: TurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  const { agent } = input;
  const provider = providerOf(agent.provider);
  const log = await TurnLog.open(deps.store, agent.agent_id, input.triggers, parseTotals(agent.provider_totals_json), dataFolderSecrets(deps.dataDir));
  await deps.onOpened?.(log.turn);
  if (!existsSync(agent.folder)) {
    await log.finish('failed', `Its folder ${agent.folder} no longer exists. Remove the agent and add it again with its new folder.`);
    return outcomeOf(log, 'failed');
  }
  const command = await locateProvider(provider, deps.env);
  if (!command) {
    const error = `${provider.name} (${provider.executable}) was not found on the app's PATH (${deps.env.PATH ?? 'not set'}).`;
    return cantRunEnd(log, cantRunOf(provider, 'cli_missing', { command: null, model: agent.model, detail: error }));
  }
  // Checked before every turn: the agent itself may have written such files in its last one.
  const settings = provider.folderSettings?.(agent.folder, deps.home);
  if (settings) {
    const detail = `${provider.name} would obey ${settings.files.join(', ')}: ${settings.why}. The turn did not start.`;
    return cantRunEnd(log, cantRunOf(provider, 'folder_settings', { command, model: agent.model, detail, files: settings.files }));
  }
  // A CLI whose unsigned turn would not fail by itself (it only reconnects) is asked first.
  if (provider.signInStatus?.beforeEachTurn) {
    const state = await signInState(provider, command, deps.env, deps.home);
    if (state.signedIn === false) {
      const asked = [command, ...provider.signInStatus.args].join(' ');
      return cantRunEnd(log, cantRunOf(provider, 'not_signed_in', { command, model: agent.model, detail: `\`${asked}\` said: ${state.said || 'not signed in'} (see \`${signInCommand(provider, command)}\`)` }));
    }
  }
  // An "Ask me" turn may ask the person, under a key only its own helper's connection carries.
  const turnKey = agent.permissions === 'ask' ? randomBytes(32).toString('base64url') : null;
  if (turnKey) {
    deps.approvals.openTurn(turnKey, { agentId: agent.agent_id, turnNumber: log.turn, roomId: agent.room_id, sessionId: workerSessionId(agent.worker_id, agent.room_id), agentName: input.name, showWait: deps.showApprovalWait });
  }
  let attempt: Attempt;
  try {
    attempt = await runOnce(deps, input, log, command, agent.provider_session_id, signal, turnKey);
    if (attempt.resumeFailed) {
      await log.entry('note', `Could not continue ${provider.name}'s earlier session; starting a new one.`);
      await log.forgetSession();
      attempt = await runOnce(deps, input, log, command, null, signal, turnKey);
    }
  } finally {
    if (turnKey) await deps.approvals.closeTurn(turnKey, signal.aborted ? 'The turn was stopped while this waited.' : 'The turn ended while this waited.');
  }
  if (attempt.status === 'failed' && attempt.cause) {
    return cantRunEnd(log, cantRunOf(provider, attempt.cause, { command, model: agent.model, detail: attempt.error ?? '' }));
  }
  const changes = await deps.changesOfTurn?.().catch(() => null);
  if (changes) await log.entry('note', changes);
  const deniedBy = turnKey === null ? null : await deps.approvals.deniedIn(agent.agent_id, log.turn).catch(() => null);
  await recordTurnWithoutReply(deps.roomStore ?? deps.store, agent, input.triggers, { status: attempt.status, said: attempt.said, lostAnswer: attempt.lostAnswer, deniedBy }, log);
  await log.finish(attempt.status, attempt.error);
  return outcomeOf(log, attempt.status, null, attempt.status === 'failed' ? (attempt.limit ?? null) : null);
}

function outcomeOf(log: TurnLog, status: TurnOutcome['status'], cantRun: CantRun | null = null, limit: TurnLimit | null = null): TurnOutcome {
  return { turn: log.turn, status, inputTokens: log.inputTokens, outputTokens: log.outputTokens, costUsd: log.costUsd, cantRun, limit };
}

async function cantRunEnd(log: TurnLog, cantRun: CantRun): Promise<TurnOutcome> {
  await log.entry('note', `Can't run: ${cantRun.reason}. ${cantRun.fix}`);
  await log.finish('failed', cantRun.detail || `${cantRun.reason}.`);
  return outcomeOf(log, 'failed', cantRun);
}

interface Attempt {
  status: 'done' | 'failed' | 'stopped' | 'timed_out';
  error: string | null;
  resumeFailed: boolean;
  /** The agent wrote any text at all (not only tool calls), for "empty answer". */
  said: boolean;
  /** The CLI said the model's answer came to nothing (cut at its output limit, or empty). */
  lostAnswer?: LostAnswer;
  cause?: CantRunCause;
  limit?: TurnLimit;
}

async function runOnce(
  deps: TurnRunnerDeps, input: TurnInput, log: TurnLog, command: string, resumeSessionId: string | null, signal: AbortSignal, turnKey: string | null,
): Promise<Attempt> {
  if (signal.aborted) return aborted(signal);
  const { agent } = input;
  const provider = providerOf(agent.provider);
  const agentDir = deps.agentDir(agent.agent_id);
  const launch = provider.launch(
    {
      provider: agent.provider, folder: agent.folder, model: agent.model, permissions: agent.permissions, resumeSessionId,
      helper: deps.helper, agentDir, env: deps.env, home: deps.home, dataDir: deps.dataDir, turnKey,
    },
    command,
  );
  mkdirSync(agentDir, { recursive: true, mode: 0o700 });
  for (const file of launch.files) {
    mkdirSync(dirname(file.path), { recursive: true, mode: 0o700 });
    writeFileSync(file.path, file.contents, { mode: 0o600 });
    chmodSync(file.path, 0o600);
  }
  for (const link of launch.links ?? []) {
    mkdirSync(dirname(link.path), { recursive: true, mode: 0o700 });
    rmSync(link.path, { force: true });
    symlinkSync(link.target, link.path);
  }
  const proc = startProviderProcess(launch, input.prompt);
  deps.onProcess(agent.agent_id, proc.pid ?? null);
  const onAbort = () => void proc.kill();
  signal.addEventListener('abort', onAbort, { once: true });
  let sawSession = false;
  let sawOutput = false;
  let said = false;
  let result: Extract<ActivityEvent, { kind: 'result' }> | null = null;
  // The stall watchdog: a CLI that says it is reconnecting and shows nothing else for the limit
  // is ended (its own retries go on for as long as it runs), well before the turn's time limit.
  const reconnectLimitMs = deps.reconnectLimitMs ?? DEFAULT_RECONNECT_LIMIT_MS;
  let reconnecting: string | null = null;
  let stalled: string | null = null;
  let watchdog: NodeJS.Timeout | undefined;
  try {
    const parser = provider.parser();
    for await (const line of proc.lines) {
      sawOutput ||= line.trim() !== '';
      for (const event of parser.parse(line)) {
        if (event.kind === 'session') sawSession = true;
        if (event.kind === 'text') said = true;
        // The agent acting after an answer reached it: it went on (issue 37).
        if (turnKey && WENT_ON_EVENTS.has(event.kind)) void deps.approvals.wentOn(turnKey).catch(() => undefined);
        if (event.kind === 'result') result = event;
        if (event.kind === 'reconnecting') {
          reconnecting = event.text;
          watchdog ??= setTimeout(() => {
            stalled = reconnecting;
            void proc.kill();
          }, reconnectLimitMs);
        } else {
          clearTimeout(watchdog);
          watchdog = undefined;
        }
        await record(log, event, agent.folder);
      }
    }
    if (launch.afterExit) {
      // What the CLI writes to files, it writes as it exits.
      await proc.exited;
      for (const event of launch.afterExit()) await record(log, event, agent.folder);
    }
  } catch (error) {
    await proc.kill();
    throw error;
  } finally {
    const exit = await proc.exited;
    clearTimeout(watchdog);
    signal.removeEventListener('abort', onAbort);
    deps.onProcess(agent.agent_id, null);
    if (exit.spawnError) result = { kind: 'result', ok: false, error: `Could not start ${provider.name} (${command}): ${exit.spawnError}`, cause: 'cli_broken' };
    else if (stalled !== null && !signal.aborted) {
      const seconds = Math.round(reconnectLimitMs / 1000);
      result = { kind: 'result', ok: false, error: `${provider.name} could not reach its model for ${seconds} s and was stopped. It said: ${stalled}` };
    }
    else if (!result && !signal.aborted) {
      const detail = proc.stderrTail() || `${provider.executable} exited with code ${exit.code ?? exit.signal}`;
      // Not one line of output: the CLI itself does not start (a broken install, a bad node).
      const cause = provider.causeOfExit?.(detail) ?? (sawOutput ? undefined : ('cli_broken' as const));
      result = { kind: 'result', ok: false, error: detail.slice(-1_000), ...(cause ? { cause } : {}) };
    }
  }
  if (signal.aborted) return aborted(signal);
  // A turn the CLI ends normally may still say its answer was cut (OpenCode at its output limit).
  const lostAnswer = result?.lostAnswer ? { lostAnswer: result.lostAnswer } : {};
  if (result?.ok) return { status: 'done', error: null, resumeFailed: false, said, ...lostAnswer };
  // A run that never started a session after asking to resume one could not find it.
  const resumeFailed = resumeSessionId !== null && !sawSession && result?.cause !== 'cli_broken' && !result?.limit && stalled === null;
  return { status: 'failed', error: result?.error ?? 'The turn failed.', resumeFailed, said, ...lostAnswer, ...(result?.cause ? { cause: result.cause } : {}), ...(result?.limit ? { limit: result.limit } : {}) };
}

/** The data folder's secrets a tool's output might carry: the agent token. */
function dataFolderSecrets(dataDir: string): string[] {
  try {
    return [readFileSync(agentTokenPath(dataDir), 'utf8').trim()];
  } catch {
    return [];
  }
}

/** A successful result in a few words: what it made (msg_4, task_7) or "ok", not the whole JSON. */
function summarizeResult(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return preview(text.replace(/\s+/g, ' '), 160) || 'ok';
  }
  if (typeof value !== 'object' || value === null) return preview(String(value), 160);
  const v = value as Record<string, unknown>;
  if (v.success === false) return preview(`not done: ${String(v.error ?? '')}`, 300);
  const made = [v.id, (v.task as { id?: unknown } | undefined)?.id, v.room_id].find((x) => typeof x === 'string');
  const count = Array.isArray(v.messages) ? `${v.messages.length} messages` : null;
  return [made, count].filter(Boolean).join(', ') || 'ok';
}

function aborted(signal: AbortSignal): Attempt {
  const reason = (signal.reason as TurnAbortReason) ?? 'stopped';
  const status = reason === 'timed_out' ? 'timed_out' : reason === 'closing' ? 'failed' : 'stopped';
  return { status, error: ABORT_TEXT[reason] ?? ABORT_TEXT.stopped, resumeFailed: false, said: false };
}

/** One event of the CLI's stream into the log; paths read relative to the folder it works in (`folder`). */
async function record(log: TurnLog, event: ActivityEvent, folder: string): Promise<void> {
  switch (event.kind) {
    case 'session':
      return log.session(event.sessionId);
    case 'tool_call':
      return log.entry('tool_call', toolCallText(event.tool, event.input, folder));
    case 'tool_result':
      return log.entry(
        event.ok ? 'tool_result' : 'error',
        relativeToFolder(event.ok ? `${event.tool} → ${summarizeResult(event.text)}` : `${event.tool} failed: ${preview(event.text)}`, folder),
      );
    case 'text':
      return log.entry('text', event.text);
    case 'note':
    case 'reconnecting':
      return log.entry('note', event.text);
    case 'error':
      return log.entry('error', event.text);
    case 'usage':
      return log.usage(event);
    case 'result':
      if (!event.ok && event.error) await log.entry('error', event.error);
      return;
  }
}
