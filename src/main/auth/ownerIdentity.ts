// Who owns the agents on this machine (data-model.md §5.4): the signed-in GitHub account's
// name, else its login, else the OS user name; the slug comes from the login when there is one.
import { userInfo } from 'node:os';
import { ownerSlug } from '../domain/identity/labels';

export interface OwnerIdentity {
  /** "Ada Lovelace", "ada" or the OS user name; used in "<Owner>'s agent" and as the person's sender. */
  ownerLabel: string;
  ownerSlug: string;
  githubLogin: string | null;
}

/** The OS user name, or "" when the OS will not say (a blank owner later reads "Owner"). */
export function osUserName(env: NodeJS.ProcessEnv = process.env): string {
  try {
    const name = userInfo().username.trim();
    if (name) return name;
  } catch {
    // Some containers have no passwd entry for the current uid: fall back to the environment.
  }
  return (env.USER ?? env.USERNAME ?? env.LOGNAME ?? '').trim();
}

export function ownerIdentityOf(account: { login: string; displayName: string | null } | null, osUser: string): OwnerIdentity {
  const githubLogin = account?.login.trim() || null;
  const ownerLabel = account?.displayName?.trim() || githubLogin || osUser.trim() || 'Owner';
  return { ownerLabel, ownerSlug: ownerSlug({ githubLogin, ownerLabel }), githubLogin };
}
