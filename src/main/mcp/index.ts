// The MCP layer's entry: createMcpConnectionHandler(core) gives the gateway a hub that
// builds one interactive_desktop McpServer per agent connection.
import { userInfo } from 'node:os';
import type { Core } from '../core';
import type { AuthService } from '../auth/authService';
import type { Places } from '../store/places';
import { ownerSlug } from '../domain/identity/labels';
import { McpHub } from './hub';
import type { McpServices, OwnerIdentity } from './services';
import { WAIT_PROGRESS_EVERY_MS } from './tools/waitProgress';
import { TURN_WAIT_MS } from '../domain/activation/broadcastTurns';

export { McpHub } from './hub';

export interface McpLayerOptions {
  readonly version?: string;
  /** Every place rooms can be in (this computer and the teams); default: this computer only. */
  readonly places?: Places;
  /** GitHub sign-in: owner identity, get_current_room's auth and the onboarding tools use it. */
  readonly auth?: AuthService;
  /** The owner in actor labels: the signed-in GitHub name, else the OS user name. */
  readonly owner?: () => Promise<OwnerIdentity>;
  readonly authSummary?: McpServices['authSummary'];
  readonly githubData?: McpServices['githubData'];
  /** Internal: the progress interval of wait_for_messages (tests of long waits shorten it). */
  readonly waitProgressMs?: number;
  /** This machine's name as the team's other machines see it; default: the host name. */
  readonly machineName?: string;
  /** Internal: how long one @all turn lasts at most (TURN_WAIT_MS; tests shorten it). */
  readonly turnWaitMs?: number;
}

/** The OS user as owner, for a signed-out app. */
export function osOwner(): OwnerIdentity {
  let name = 'Owner';
  try {
    name = userInfo().username || name;
  } catch {
    // No user database entry (some containers): keep the spec's blank-owner fallback.
  }
  return { ownerLabel: name, ownerSlug: ownerSlug({ ownerLabel: name }) };
}

export function createMcpConnectionHandler(core: Core, options: McpLayerOptions = {}): McpHub {
  return new McpHub({
    core,
    places: options.places,
    version: options.version ?? '0.1.0',
    owner: options.owner ?? (options.auth ? () => options.auth!.ownerIdentity() : async () => osOwner()),
    authSummary: options.authSummary ?? (options.auth ? () => options.auth!.authSummary() : async () => null),
    auth: options.auth ?? null,
    githubData: options.githubData ?? null,
    waitProgressMs: options.waitProgressMs ?? WAIT_PROGRESS_EVERY_MS,
    machineName: options.machineName,
    turnWaitMs: options.turnWaitMs ?? TURN_WAIT_MS,
  });
}
