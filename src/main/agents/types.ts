// What the managed-agents core passes around: why a turn starts, what a provider's stream
// says happened, and how a provider is launched.
import type { AgentPermissions } from '../../shared/model/managedAgents';
import type { EarlierAnswer } from '../domain/activation/earlierAnswers';
import type { HelperCommand } from '../setup/helperCommand';

/** One reason for a turn. Several that arrive together make one turn. */
export type Trigger =
  /**
   * `earlier`: set when this is the agent's turn of a person's @all answered in turn (issue 34):
   * the answers that came before its turn (domain/activation/earlierAnswers.ts; possibly none,
   * when the others passed or went away).
   */
  | { kind: 'message'; roomId: string; number: number; sender: string; text: string; reason: string; earlier?: readonly EarlierAnswer[] }
  | { kind: 'task'; roomId: string; number: number; title: string }
  | { kind: 'run_now'; by: string }
  /** An automation's run (automations/): its instruction, and what started the run. */
  | { kind: 'automation'; automationId: string; run: number; name: string; cause: string; instructions: string };

/** What a provider's output stream reported, in one common form for both providers. */
export type ActivityEvent =
  | { kind: 'session'; sessionId: string }
  | { kind: 'tool_call'; tool: string; input: string }
  /** `text`: the whole result; the log keeps a summary. */
  | { kind: 'tool_result'; tool: string; ok: boolean; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'note'; text: string }
  | { kind: 'error'; text: string }
  /**
   * What the provider reports it used: tokens and cost each either for this run alone or as
   * the running total of its session (the runner turns totals into per-turn figures).
   */
  | { kind: 'usage'; inputTokens: number; outputTokens: number; tokensScope: UsageScope; costUsd: number | null; costScope: UsageScope }
  /** The CLI cannot reach its model and is trying again ("Reconnecting... waiting for network"): no progress. */
  | { kind: 'reconnecting'; text: string }
  /**
   * The provider's final word on the run; `cause`: a failure only the person can fix; `limit`:
   * the provider refused for a usage limit that resets at a known time, or a short rate limit;
   * `lostAnswer`: the CLI says its model's answer came to nothing, cut at the output token limit
   * or empty (each provider reads its own CLI's words for it; noReply.ts turns it into the reason).
   */
  | { kind: 'result'; ok: boolean; error: string | null; cause?: CantRunCause; limit?: TurnLimit; lostAnswer?: LostAnswer };

/** Why a CLI says the model's answer came to nothing: cut at its output token limit, or empty. */
export type LostAnswer = 'output_limit' | 'empty';

export type UsageScope = 'run' | 'session';

/**
 * A provider's refusal that passes by itself: the account's usage limit, which resets at
 * `resetsAt` (the agent waits until then), or a short rate limit or overload (tried again soon).
 */
export type TurnLimit = { kind: 'usage_limit'; resetsAt: string } | { kind: 'rate_limited' };

/** A turn failure only the person can fix (cantRun.ts words it). */
export type CantRunCause = 'not_signed_in' | 'cli_missing' | 'cli_broken' | 'quota' | 'model_not_found' | 'folder_settings';

/** Reads a provider's stream line by line (it keeps state, e.g. tool names by call id). */
export interface StreamParser {
  parse(line: string): ActivityEvent[];
}

/** Everything a provider needs to build one turn's command. */
export interface TurnSpec {
  /** The provider's id (providers/index.ts). */
  readonly provider: string;
  readonly folder: string;
  readonly model: string | null;
  readonly permissions: AgentPermissions;
  /** The provider session to continue; null starts a new one. */
  readonly resumeSessionId: string | null;
  /** Our stdio helper: the only MCP server the turn gets. */
  readonly helper: HelperCommand;
  /** Where this agent's files live (e.g. Claude Code's MCP config). */
  readonly agentDir: string;
  /** The person's environment, already cleaned of the app's own settings. */
  readonly env: NodeJS.ProcessEnv;
  /** The person's home (for reading their provider config). */
  readonly home: string;
  /** The app's data folder: no turn may read it (it holds the agent token). */
  readonly dataDir: string;
  /** Set for an "Ask me" turn: the helper's hello carries it, so its connection may ask the person. */
  readonly turnKey?: string | null;
}

/** A ready-to-spawn provider process. The prompt goes to stdin, never into argv. */
export interface ProviderLaunch {
  readonly command: string;
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Files to write before spawning (path → contents); they carry no secret. */
  readonly files: ReadonlyArray<{ path: string; contents: string }>;
  /** Symbolic links to make before spawning (path → what it points at), e.g. the person's sign-in. */
  readonly links?: ReadonlyArray<{ path: string; target: string }>;
  /** What the CLI left in files when it exited (Copilot's token counts), after its stream. */
  readonly afterExit?: () => ActivityEvent[];
}

/** An offline command that says whether the CLI is signed in: `<cli> …args`. */
export interface SignInStatus {
  readonly args: readonly string[];
  /** False when its own sign-in does not matter (e.g. Codex set up with another model provider); left out, it always does. */
  applies?(env: NodeJS.ProcessEnv, home: string): boolean;
  /** What the command's output says: signed in, not, or null when it cannot tell. */
  signedIn(output: { code: number | null; stdout: string; stderr: string }): boolean | null;
  /**
   * Asked before every turn too: a turn of this CLI without a sign-in does not fail by itself
   * (Codex 0.171 sends its requests without a key and, when its server cannot be reached, only
   * says "Reconnecting... waiting for network" for as long as it runs).
   */
  readonly beforeEachTurn?: boolean;
}

/**
 * An agent CLI the app can run. Everything the app knows of it is here: its id, its name,
 * what a person may let it do, the names `agent add --provider` takes, how to find, sign in,
 * launch and read it. providers/index.ts lists them; nothing else names a provider.
 */
export interface Provider {
  /** Stored with each agent, so never renamed: lower case, digits and _ (the CLI also takes it with - for _). */
  readonly id: string;
  /** "Claude Code": the IDE label of its worker and the name people see. */
  readonly name: string;
  /** Other names `agent add --provider` takes ("claude" for claude_code). */
  readonly aliases?: readonly string[];
  /** What a person may let it do, in the order Add agent offers them. */
  readonly permissions: readonly AgentPermissions[];
  /** Why a choice is missing for this CLI, said where the person chooses; left out: nothing to say. */
  readonly permissionsNote?: string;
  /** The executable looked up on PATH. */
  readonly executable: string;
  readonly installHint: string;
  /** Signs the person in: `<cli> …loginArgs`; left out, the CLI alone asks (Gemini CLI). */
  readonly loginArgs?: readonly string[];
  /**
   * Its offline sign-in status command, where the app relies on one. Left out, nothing is
   * asked before a turn: a turn that fails to sign in says so itself.
   */
  readonly signInStatus?: SignInStatus;
  launch(spec: TurnSpec, command: string): ProviderLaunch;
  parser(): StreamParser;
  /** A run that ended without a result: the failure only the person can fix that its stderr names, if any. */
  causeOfExit?(stderr: string): CantRunCause | undefined;
  /**
   * The folder's own settings this CLI would obey whatever the app passes it (files that run as
   * the person or loosen the turn's rules), and why; no turn starts while any exists.
   */
  folderSettings?(folder: string, home: string): FolderSettings | null;
}

export interface FolderSettings {
  readonly files: readonly string[];
  /** What the CLI does with them, e.g. "OpenCode 1.18.33 runs their plugins as you". */
  readonly why: string;
}

/** A provider with its id's literal type kept, so providers/index.ts derives the ids' type from its list. */
export function defineProvider<const Id extends string>(provider: Provider & { readonly id: Id }): Provider & { readonly id: Id } {
  return provider;
}
