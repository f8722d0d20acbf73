// The team registry's refusals, each saying what to do; none repeats a URL.
import { DomainError } from '../domain/errors';
import { describeKeychainProblem, KeychainUnavailableError } from '../secrets/secretStore';
import { teamUrlEnvName } from './teamNames';

const hard = (code: string, message: string) => new DomainError(code, 'hard', message);

export const teamErrors = {
  exists: (name: string) => hard('team_exists', `A team named "${name}" already exists. To change its URL, remove it first, then add it again.`),
  fromEnvironment: (name: string, variable: string) =>
    hard('team_exists', `The team "${name}" already comes from the environment variable ${variable}. Unset it to add the team to the keychain instead.`),
  notFound: (name: string) => hard('team_not_found', `There is no team named "${name}". \`letagents-desktop team list\` shows the teams.`),
  onlyInEnvironment: (name: string, variable: string) =>
    hard('team_from_environment', `The team "${name}" comes from the environment variable ${variable}; unset it to remove the team.`),
  unreachable: (host: string, reason: string) =>
    hard('team_unreachable', `Cannot connect to the team database at ${host || 'the default socket'}: ${reason}. Nothing was added.`),
  tooNew: (found: number, known: number) =>
    hard('update_required', `The team database was set up by a newer version of LetAgents (schema ${found}; this app knows ${known}). Update the app, then add the team. Nothing was added.`),
  noUrl: (name: string) =>
    hard('team_unavailable', `The keychain holds no URL for the team "${name}". Remove the team and add it again, or set ${teamUrlEnvName(name)}.`),
  unknownPlace: (place: string) => hard('place_unknown', `"${place}" is neither "local" nor a team. \`letagents-desktop team list\` shows the teams.`),
  keychain: (reason: string, fix: string) => new DomainError('keychain_unavailable', 'hard', describeKeychainProblem(reason, fix), undefined, { reason, fix }),
} as const;

/** Keychain failures in the registry's words (a DomainError the app API and CLI report as is). */
export function keychainFailure(error: unknown): unknown {
  return error instanceof KeychainUnavailableError ? teamErrors.keychain(error.reason, error.fix) : error;
}
