// The settings of a new managed agent, checked before anything is stored: an existing
// absolute folder, a writable room, a name no other agent uses there and a mention reaches, the provider's CLI
// on this machine. Bad input gets a clear error and changes nothing.
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { AddAgentInput } from '../../shared/model/managedAgents';
import { appErrors, DomainError } from '../domain/errors';
import { normalizeHandle } from '../domain/identity/handles';
import { cleanDisplayName } from '../domain/identity/names';
import { unmentionableName } from '../domain/messages/mentions';
import { resolveWritableRoom } from '../domain/rooms/rooms';
import { listRoomSessions } from '../domain/sessions/sessions';
import type { Storage } from '../store/port';
import { locateProvider, providerOf, type ProviderId } from './providers';

export const DEFAULT_TURNS_PER_HOUR = 20;

export interface CheckedAgentConfig {
  readonly provider: ProviderId;
  readonly folder: string;
  readonly roomId: string;
  readonly name: string;
  readonly instructions: string;
  readonly model: string | null;
  readonly permissions: AddAgentInput['permissions'];
  readonly turnsPerHour: number | null;
  readonly dailyTokenCap: number | null;
}

export async function checkAgentConfig(store: Storage, env: NodeJS.ProcessEnv, input: AddAgentInput): Promise<CheckedAgentConfig> {
  const provider = providerOf(input.provider);
  if (!isAbsolute(input.folder)) throw appErrors.invalidInput(`The folder must be a full path (like /home/you/project), not "${input.folder}".`);
  const folder = resolve(input.folder);
  const folderStat = await stat(folder).catch(() => null);
  if (!folderStat?.isDirectory()) throw appErrors.invalidInput(`The folder ${folder} does not exist.`);
  await store.read((q) => resolveWritableRoom(q, input.roomId));
  const name = cleanDisplayName(input.name);
  if (name === null) throw appErrors.invalidInput('An agent name must be 1–64 characters.');
  // It takes turns when mentioned: a name no mention reaches would never be addressed.
  const unmentionable = unmentionableName(name);
  if (unmentionable) throw appErrors.invalidInput(unmentionable);
  const sessions = await store.read((q) => listRoomSessions(q, input.roomId));
  const key = normalizeHandle(name);
  if (sessions.some((s) => s.name_key === key && (s.worker_id !== null || s.ended_at === null))) throw appErrors.nameTaken();
  // The model goes to the provider's command line; the contract refuses this too, here for any other caller.
  if (input.model?.trim().startsWith('-')) throw appErrors.invalidInput('A model name cannot start with "-".');
  if (!provider.permissions.includes(input.permissions)) {
    throw appErrors.invalidInput(input.permissions === 'ask'
      ? `${provider.name} cannot ask you before each tool use ("Ask me"): choose read only, edit or your own ${provider.name} settings.`
      : `${provider.name} does not offer "${input.permissions}": choose one of ${provider.permissions.join(', ')}.`);
  }
  if (!(await locateProvider(provider, env))) {
    throw new DomainError('provider_not_installed', 'hard', `${provider.name} (${provider.executable}) was not found on PATH. ${provider.installHint}`);
  }
  return {
    provider: provider.id,
    folder,
    roomId: input.roomId,
    name,
    instructions: input.instructions?.trim() ?? '',
    model: input.model?.trim() || null,
    permissions: input.permissions,
    turnsPerHour: input.turnsPerHour === undefined ? DEFAULT_TURNS_PER_HOUR : input.turnsPerHour,
    dailyTokenCap: input.dailyTokenCap ?? null,
  };
}

