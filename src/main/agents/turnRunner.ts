// Runs one managed turn: the provider CLI headless in the agent's folder with the turn's
// prompt on stdin, its stream turned into the activity log, and the outcome recorded. A
// saved provider session that cannot be continued is dropped and the turn runs fresh.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ManagedAgentRow } from '../store/managedAgentQueries';
import type { HelperCommand } from '../setup/helperCommand';
import type { Approvals } from '../approvals/approvals';
import { workerSessionId } from '../domain/identity/agentKeys';
import type { Storage } from '../store/port';
import { cantRunOf, type CantRun } from './cantRun';
import { agentTokenPath } from '../paths';
import { providerOf, locateProvider } from './providers';
import { startProviderProcess } from './providerProcess';
import { parseTotals, TurnLog } from './turnLog';
import { recordTurnWithoutReply } from './noReply';
import type { TurnAbortReason } from './turnScheduler';
import { preview } from './providers/streamText';
import type { ActivityEvent, CantRunCause, Trigger } from './types';

export interface TurnRunnerDeps {
  readonly store: Storage;
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
  /** The provider process of a running turn started (pid) or ended (null). */
  onProcess(agentId: string, pid: number | null): void;
  /** One line on what the agent's files now differ by (its worktree), for the turn's log. */
  changesOfTurn?(): Promise<string | null>;
}

export interface TurnInput {
  readonly agent: ManagedAgentRow;
  readonly prompt: string;
  readonly triggers: readonly Trigger[];
  /** Its name in the room now (what approval items say). */
  readonly name: string;
}

const ABORT_TEXT: Record<TurnAbortReason, string> = {
  stopped: 'Stopped by a person.',
  timed_out: 'The turn ran past its time limit and was ended.',
  closing: 'The app closed during this turn.',
};

/** How a turn ended, for the service: `cantRun` when it failed for a reason only the person can fix. */
export interface TurnOutcome {
  readonly cantRun: CantRun | null;
}

export async function runTurn(deps: TurnRunnerDeps, input: TurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  const { agent } = input;
  const provider = providerOf(agent.provider);
  const log = await TurnLog.open(deps.store, agent.agent_id, input.triggers, parseTotals(agent.provider_totals_json), dataFolderSecrets(deps.dataDir));
  if (!existsSync(agent.folder)) {
    await log.finish('failed', `Its folder ${agent.folder} no longer exists. Remove the agent and add it again with its new folder.`);
    return { cantRun: null };
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
  // An "Ask me" turn may ask the person, under a key only its own helper's connection carries.
  const turnKey = agent.permissions === 'ask' ? randomBytes(32).toString('base64url') : null;
  if (turnKey) {
    deps.approvals.openTurn(turnKey, { agentId: agent.agent_id, turnNumber: log.turn, roomId: agent.room_id, sessionId: workerSessionId(agent.worker_id, agent.room_id), agentName: input.name });
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
  await recordTurnWithoutReply(deps.store, agent, input.triggers, attempt.status, log);
  await log.finish(attempt.status, attempt.error);
  return { cantRun: null };
}

async function cantRunEnd(log: TurnLog, cantRun: CantRun): Promise<TurnOutcome> {
  await log.entry('note', `Can't run: ${cantRun.reason}. ${cantRun.fix}`);
  await log.finish('failed', cantRun.detail || `${cantRun.reason}.`);
  return { cantRun };
}

interface Attempt {
  status: 'done' | 'failed' | 'stopped' | 'timed_out';
  error: string | null;
  resumeFailed: boolean;
  cause?: CantRunCause;
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
  let result: Extract<ActivityEvent, { kind: 'result' }> | null = null;
  try {
    const parser = provider.parser();
    for await (const line of proc.lines) {
      sawOutput ||= line.trim() !== '';
      for (const event of parser.parse(line)) {
        if (event.kind === 'session') sawSession = true;
        if (event.kind === 'result') result = event;
        await record(log, event);
      }
    }
    if (launch.afterExit) {
      // What the CLI writes to files, it writes as it exits.
      await proc.exited;
      for (const event of launch.afterExit()) await record(log, event);
    }
  } catch (error) {
    await proc.kill();
    throw error;
  } finally {
    const exit = await proc.exited;
    signal.removeEventListener('abort', onAbort);
    deps.onProcess(agent.agent_id, null);
    if (exit.spawnError) result = { kind: 'result', ok: false, error: `Could not start ${provider.name} (${command}): ${exit.spawnError}`, cause: 'cli_broken' };
    else if (!result && !signal.aborted) {
      const detail = proc.stderrTail() || `${provider.executable} exited with code ${exit.code ?? exit.signal}`;
      // Not one line of output: the CLI itself does not start (a broken install, a bad node).
      const cause = provider.causeOfExit?.(detail) ?? (sawOutput ? undefined : ('cli_broken' as const));
      result = { kind: 'result', ok: false, error: detail.slice(-1_000), ...(cause ? { cause } : {}) };
    }
  }
  if (signal.aborted) return aborted(signal);
  if (result?.ok) return { status: 'done', error: null, resumeFailed: false };
  // A run that never started a session after asking to resume one could not find it.
  const resumeFailed = resumeSessionId !== null && !sawSession && result?.cause !== 'cli_broken';
  return { status: 'failed', error: result?.error ?? 'The turn failed.', resumeFailed, ...(result?.cause ? { cause: result.cause } : {}) };
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
  return { status: reason === 'timed_out' ? 'timed_out' : reason === 'closing' ? 'failed' : 'stopped', error: ABORT_TEXT[reason] ?? ABORT_TEXT.stopped, resumeFailed: false };
}

async function record(log: TurnLog, event: ActivityEvent): Promise<void> {
  switch (event.kind) {
    case 'session':
      return log.session(event.sessionId);
    case 'tool_call':
      return log.entry('tool_call', event.input ? `${event.tool} ${event.input}` : event.tool);
    case 'tool_result':
      return log.entry(event.ok ? 'tool_result' : 'error', event.ok ? `${event.tool} → ${summarizeResult(event.text)}` : `${event.tool} failed: ${preview(event.text)}`);
    case 'text':
      return log.entry('text', event.text);
    case 'note':
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
