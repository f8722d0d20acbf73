// Choosing a session's name in a room (data-model.md §5.2, worker-handles.md §6 step 5):
// the preferred name, or on a clash codename("<agent_key>:<k>") for k = 1, 2, … — never
// a numbered variant. Name choice and insert are one step: insert, and on a conflict
// with the unique room-name index try the next candidate. A codename that is a person's name
// there is passed over (an agent never takes a person's name: identity/personNames.ts), and so
// is one with the asked-for name as a word ("BayCedar" for a second "Cedar" reads as the same
// agent in a mention list; the spec asks for a *different* name).
import type { Tx } from '../../store/port';
import { insertSessionRow, type NewSessionRow } from '../../store/sessionQueries';
import { appErrors } from '../errors';
import { CODENAME_SPACE, codename } from '../identity/codenames';
import { normalizeHandle } from '../identity/handles';
import { actorLabel } from '../identity/labels';

export type UnnamedSessionRow = Omit<NewSessionRow, 'display_name' | 'name_key' | 'actor_label'>;

/** Inserts the session under the first free name and returns the stored row's naming; `passOver` names are never taken. */
export async function insertSessionWithFreeName(
  tx: Tx,
  row: UnnamedSessionRow,
  preferredName: string,
  passOver: (name: string) => boolean = () => false,
): Promise<NewSessionRow> {
  const askedWord = normalizeHandle(preferredName);
  // Every codename may be taken only in a room with ~10 000 agents; stop there rather than loop forever.
  for (let k = 0; k <= CODENAME_SPACE; k++) {
    const substitute = k === 0 ? null : codename(`${row.agent_key}:${k}`);
    if (substitute?.words.includes(askedWord)) continue;
    const name = substitute?.displayName ?? preferredName;
    if (passOver(name)) continue;
    const named: NewSessionRow = {
      ...row,
      display_name: name,
      name_key: normalizeHandle(name),
      actor_label: actorLabel(name, row.owner_label, row.ide_label),
    };
    if (await insertSessionRow(tx, named) === 'inserted') return named;
  }
  throw appErrors.nameTaken();
}
