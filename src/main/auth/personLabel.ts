// The person's name as an actor in a place: on this computer the owner label (GitHub name when
// signed in, else the OS user name); in a team's room the GitHub login, else user@machine, so
// the team can tell its people apart (team-rooms.md §4).
import { hostname } from 'node:os';
import { LOCAL_PLACE } from '../store/places';
import type { AuthService } from './authService';
import { osUserName } from './ownerIdentity';

export async function personLabelIn(auth: Pick<AuthService, 'ownerIdentity'>, place: string | undefined): Promise<string> {
  const owner = await auth.ownerIdentity();
  if (place === undefined || place === LOCAL_PLACE) return owner.ownerLabel;
  return owner.githubLogin ?? `${osUserName() || 'someone'}@${hostname()}`;
}
