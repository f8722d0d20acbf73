// What an automation may be, checked before anything is stored: its room exists and takes
// messages; a managed agent target works in that room (managed agents run on this computer, so
// its automations do too); a run may do at most what its agent may, and never asks the person
// first (nobody is there to answer an unattended run); a fresh worktree needs an agent that
// may edit a git repository; a schedule croner can read, in a time zone this computer knows.
import type { AutomationInput, AutomationTarget, AutomationTrigger, RunLimits } from '../../shared/model/automations';
import { permissionWithin, type AgentPermissions } from '../../shared/model/managedAgents';
import type { ManagedAgents } from '../agents/managedAgents';
import { appErrors } from '../domain/errors';
import { gitCurrentBranch } from '../domain/git';
import { getRoom } from '../domain/rooms/rooms';
import { LOCAL_PLACE, type Places } from '../store/places';
import { compileSchedule } from './schedule';

/** An automation as it is stored. */
export interface CheckedAutomation {
  readonly name: string;
  readonly place: string;
  readonly roomId: string;
  readonly target: AutomationTarget;
  readonly instructions: string;
  readonly trigger: AutomationTrigger;
  readonly limits: RunLimits;
}

export const DEFAULT_LIMITS: RunLimits = { maxTurns: 3, maxTokens: null, permissions: null, freshWorktree: false };

const PERMISSION_NAMES: Readonly<Record<AgentPermissions, string>> = {
  read_only: 'read its folder',
  edit: 'edit files in its folder',
  ask: 'ask you before each tool use',
  provider_default: 'do what your provider settings allow',
};

export async function checkAutomation(places: Places, agents: ManagedAgents, input: AutomationInput, nowMs: number): Promise<CheckedAutomation> {
  const place = await places.name(input.place ?? LOCAL_PLACE);
  const room = await (await places.get(place)).read((q) => getRoom(q, input.roomId));
  if (!room) throw appErrors.notFound('Room');
  if (room.archived_at !== null) throw appErrors.invalidInput(`${room.display_name} is archived: an automation cannot post there. Unarchive it first.`);
  const limits: RunLimits = { ...DEFAULT_LIMITS, ...input.limits };
  const target = input.target.kind === 'mention' ? { kind: 'mention' as const, handle: input.target.handle.replace(/^@/, '') } : input.target;
  if (target.kind === 'agent') await checkAgentTarget(agents, target.agentId, place, input.roomId, limits);
  else if (limits.permissions !== null || limits.freshWorktree) {
    throw appErrors.invalidInput('A mention asks whichever agents it reaches, with their own settings: permissions and a fresh worktree are for a managed agent target.');
  }
  if (input.trigger.type === 'schedule') compileSchedule(input.trigger, nowMs);
  return { name: input.name.trim(), place, roomId: input.roomId, target, instructions: input.instructions.trim(), trigger: input.trigger, limits };
}

async function checkAgentTarget(agents: ManagedAgents, agentId: string, place: string, roomId: string, limits: RunLimits): Promise<void> {
  const record = await agents.get(agentId);
  const name = record.session?.display_name ?? record.worker?.display_name ?? 'The agent';
  if (place !== LOCAL_PLACE || record.row.room_id !== roomId) {
    throw appErrors.invalidInput(`${name} works in ${record.roomName} on this computer: its automations run there.`);
  }
  const own = record.row.permissions;
  const wanted = limits.permissions ?? own;
  if (!permissionWithin(wanted, own)) {
    throw appErrors.invalidInput(`${name} may only ${PERMISSION_NAMES[own]}: an automation cannot let it ${PERMISSION_NAMES[wanted]}. Choose ${PERMISSION_NAMES[own]} or less.`);
  }
  if (wanted === 'ask') {
    throw appErrors.invalidInput(`An automation runs while nobody watches: it cannot ask you before each tool use, as ${name} does. Choose "read its folder" or "edit files in its folder" for its runs.`);
  }
  if (limits.freshWorktree) {
    if (wanted === 'read_only') throw appErrors.invalidInput('A run that may only read changes no files: a fresh worktree is for runs that may edit.');
    if ((await gitCurrentBranch(record.row.folder).catch(() => null)) === null) {
      throw appErrors.invalidInput(`${name}'s folder ${record.row.folder} is not in a git repository with a branch checked out: a fresh worktree needs one.`);
    }
  }
}
