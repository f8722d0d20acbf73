// Errors of agent-config set-up: each names the file and the problem, and the file is left as it was.
import { DomainError } from '../domain/errors';

const unchanged = 'LetAgents left it unchanged; fix or remove it, then try again.';

export const setupErrors = {
  malformed: (file: string, problem: string) =>
    new DomainError('config_malformed', 'hard', `${file} cannot be read: ${problem}. ${unchanged}`),
  unsupported: (file: string, problem: string) =>
    new DomainError('config_unsupported', 'hard', `${file} cannot be edited safely: ${problem}. ${unchanged}`),
  busy: (file: string) =>
    new DomainError('config_busy', 'hard', `${file} kept changing while LetAgents was editing it. Try again.`),
} as const;
