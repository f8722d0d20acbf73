// The set-up service behind the Connect agents screen: per tool, whether it is installed and
// connected, one-click connect/disconnect of our MCP entry, the snippet for manual set-up, and
// the first prompt. Home, platform and environment are injected so tests never touch the real HOME.
import { stringify } from 'smol-toml';
import { appErrors, isDomainError } from '../domain/errors';
import { agentTools, SERVER_NAME, type AgentTool, type AgentToolId, type HostContext } from './agentTools';
import { addAllowRule, hasAllowRule, removeAllowRule } from './allowRule';
import { editConfigFile, readConfigText } from './configFile';
import { isInstalled } from './detect';
import { firstPrompt } from './firstPrompt';
import { entryFields, type HelperCommand } from './helperCommand';
import { readJsonEntry, removeJsonEntry, setJsonEntry } from './jsonConfig';
import { isObject, sameValue } from './sameValue';
import { readTomlEntry, removeTomlEntry, setTomlEntry } from './tomlConfig';

export interface SetupServiceOptions {
  home: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  helperCommand: HelperCommand;
}

export interface AgentToolStatus {
  id: AgentToolId;
  name: string;
  detected: boolean;
  configured: boolean;
  configPath: string;
  /** Configured with exactly our current helper command. */
  entryMatches: boolean;
  /** Why the config file cannot be read (malformed, unreadable); null when it is fine. */
  problem: string | null;
  /** Claude Code: its settings allow LetAgents' tools without asking (null: no such setting for this tool, or unreadable). */
  toolsAllowed: boolean | null;
  /** Claude Code: the settings file that rule lives in. */
  allowSettingsPath: string | null;
}

export interface ConfigChange {
  toolId: AgentToolId;
  configPath: string;
  changed: boolean;
  backupPath: string | null;
  /** The allow rule's settings file, when it was changed too (Claude Code). */
  allowRule: { path: string; changed: boolean; backupPath: string | null } | null;
}

export interface ConnectOptions {
  /** Claude Code: also allow LetAgents' tools without asking (the person agreed on the card). */
  allowTools?: boolean;
}

export interface ConfigSnippet {
  toolId: AgentToolId;
  configPath: string;
  format: 'json' | 'toml';
  text: string;
}

export interface SetupService {
  status(): Promise<AgentToolStatus[]>;
  connect(toolId: string, options?: ConnectOptions): Promise<ConfigChange>;
  disconnect(toolId: string): Promise<ConfigChange>;
  configSnippet(toolId: string): ConfigSnippet;
  firstPrompt(roomHint?: string, team?: string): string;
}

interface EntryOps {
  read(file: string, text: string | null, key: string): unknown;
  set(file: string, text: string | null, key: string, fields: Record<string, unknown>): string;
  remove(file: string, text: string, key: string): string;
}

const jsonOps: EntryOps = { read: readJsonEntry, set: setJsonEntry, remove: removeJsonEntry };
const tomlOps: EntryOps = { read: readTomlEntry, set: setTomlEntry, remove: removeTomlEntry };

export function createSetupService(options: SetupServiceOptions): SetupService {
  const { helperCommand } = options;
  if (typeof helperCommand?.command !== 'string' || helperCommand.command === '' || !Array.isArray(helperCommand.args) || !helperCommand.args.every((a) => typeof a === 'string')) {
    throw appErrors.invalidInput('The helper command must be a command and a list of string arguments.');
  }
  const ctx: HostContext = { home: options.home, platform: options.platform ?? process.platform, env: options.env ?? {} };
  const tools = agentTools(ctx);
  const queues = new Map<string, Promise<unknown>>();

  const find = (toolId: string): AgentTool => {
    const tool = tools.find((t) => t.id === toolId);
    if (!tool) throw appErrors.notFound(`Agent tool "${toolId}"`);
    return tool;
  };
  const opsOf = (tool: AgentTool) => (tool.format.kind === 'json' ? jsonOps : tomlOps);
  const fieldsOf = (tool: AgentTool) => entryFields(helperCommand, tool.format.kind === 'json' && tool.format.withStdioType);

  // Edits of one file run one after another, so two clicks cannot interleave.
  const serialised = <T>(file: string, work: () => Promise<T>): Promise<T> => {
    const run = (queues.get(file) ?? Promise.resolve()).then(work, work);
    queues.set(file, run.catch(() => undefined));
    return run;
  };

  /** Adds or removes Claude Code's allow rule for our tools, backed up like the config file. */
  const changeAllowRule = async (path: string, allow: boolean): Promise<ConfigChange['allowRule']> => {
    const result = await serialised(path, () => editConfigFile(path, (text) => (allow ? addAllowRule(path, text) : text === null ? null : removeAllowRule(path, text))));
    return { path, ...result };
  };

  const change = async (toolId: string, connect: boolean, options: ConnectOptions = {}): Promise<ConfigChange> => {
    const tool = find(toolId);
    const ops = opsOf(tool);
    const key = tool.format.serversKey;
    const allowPath = tool.allowSettingsPath ?? null;
    // A settings file it cannot read refuses the whole Connect before anything is written.
    if (allowPath && connect && options.allowTools) addAllowRule(allowPath, await readConfigText(allowPath));
    const result = await serialised(tool.configPath, () =>
      editConfigFile(tool.configPath, (text) =>
        keepingBom(text, (plain) => {
          if (connect) return ops.set(tool.configPath, plain, key, fieldsOf(tool));
          return plain === null ? null : ops.remove(tool.configPath, plain, key);
        }),
      ),
    );
    // Disconnect takes our rule out too (and leaves a settings file it cannot read alone).
    const allowRule = allowPath && (connect ? options.allowTools === true : await readAllowed(allowPath)) ? await changeAllowRule(allowPath, connect) : null;
    return { toolId: tool.id, configPath: tool.configPath, ...result, allowRule };
  };

  const readAllowed = async (path: string): Promise<boolean | null> => {
    try {
      return hasAllowRule(path, await readConfigText(path));
    } catch {
      return null;
    }
  };

  const statusOf = async (tool: AgentTool): Promise<AgentToolStatus> => {
    const allowSettingsPath = tool.allowSettingsPath ?? null;
    const toolsAllowed = allowSettingsPath ? await readAllowed(allowSettingsPath) : null;
    const base = { id: tool.id, name: tool.name, detected: await isInstalled(tool, ctx), configPath: tool.configPath, toolsAllowed, allowSettingsPath };
    try {
      const text = await readConfigText(tool.configPath);
      const entry = opsOf(tool).read(tool.configPath, text?.replace(/^\uFEFF/, '') ?? null, tool.format.serversKey);
      const fields = fieldsOf(tool);
      const entryMatches = isObject(entry) && Object.entries(fields).every(([k, v]) => sameValue(entry[k], v));
      return { ...base, configured: entry !== undefined, entryMatches, problem: null };
    } catch (error) {
      const problem = isDomainError(error) ? error.message : `${tool.configPath} cannot be read: ${(error as Error).message}`;
      return { ...base, configured: false, entryMatches: false, problem };
    }
  };

  return {
    status: () => Promise.all(tools.map(statusOf)),
    connect: (toolId, options) => change(toolId, true, options),
    disconnect: (toolId) => change(toolId, false),
    configSnippet(toolId) {
      const tool = find(toolId);
      const servers = { [tool.format.serversKey]: { [SERVER_NAME]: fieldsOf(tool) } };
      const text = tool.format.kind === 'json' ? JSON.stringify(servers, null, 2) + '\n' : stringify(servers);
      return { toolId: tool.id, configPath: tool.configPath, format: tool.format.kind, text };
    },
    firstPrompt,
  };
}

/** Editors on Windows may start a file with a byte-order mark: edit after it and keep it. */
function keepingBom(text: string | null, edit: (plain: string | null) => string | null): string | null {
  if (!text?.startsWith('\uFEFF')) return edit(text);
  const next = edit(text.slice(1));
  return next === null ? null : '\uFEFF' + next;
}
