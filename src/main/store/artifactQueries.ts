// SQL for room artifacts (publish_room_artifact, get_room_artifacts) and their task links.
import type { Queryable, Tx } from './port';

export interface ArtifactRow {
  room_id: string;
  number: number;
  provider: string;
  kind: string;
  identity_value: string;
  artifact_json: string;
  published_by: string;
  created_at: string;
  updated_at: string;
}

const LINKS_LIMIT = 10_000;

export function findArtifactRow(q: Queryable, roomId: string, provider: string, kind: string, identity: string): Promise<ArtifactRow | undefined> {
  return q.get<ArtifactRow>(
    'SELECT * FROM room_artifacts WHERE room_id = ? AND provider = ? AND kind = ? AND identity_value = ?',
    roomId, provider, kind, identity,
  );
}

export function getArtifactRow(q: Queryable, roomId: string, number: number): Promise<ArtifactRow | undefined> {
  return q.get<ArtifactRow>('SELECT * FROM room_artifacts WHERE room_id = ? AND number = ?', roomId, number);
}

export async function insertArtifactRow(
  tx: Tx, a: Pick<ArtifactRow,
  'room_id' | 'number' | 'provider' | 'kind' | 'identity_value' | 'artifact_json' | 'published_by'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO room_artifacts (room_id, number, provider, kind, identity_value, artifact_json, published_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    a.room_id, a.number, a.provider, a.kind, a.identity_value, a.artifact_json, a.published_by, tx.now, tx.now,
  );
}

export async function updateArtifactJson(tx: Tx, roomId: string, number: number, json: string): Promise<void> {
  await tx.run(
    'UPDATE room_artifacts SET artifact_json = ?, updated_at = ? WHERE room_id = ? AND number = ?',
    json, tx.now, roomId, number,
  );
}

export async function touchArtifactRow(tx: Tx, roomId: string, number: number): Promise<void> {
  await tx.run(
    'UPDATE room_artifacts SET updated_at = ? WHERE room_id = ? AND number = ?',
    tx.now, roomId, number,
  );
}

/** Links tasks to an artifact; returns how many links are new. */
export async function addArtifactTaskLinks(tx: Tx, roomId: string, artifactNumber: number, taskNumbers: readonly number[]): Promise<number> {
  let added = 0;
  for (const n of taskNumbers) {
    const { changes } = await tx.run(
      'INSERT INTO artifact_task_links (room_id, artifact_number, task_number) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      roomId, artifactNumber, n,
    );
    added += changes;
  }
  return added;
}

export async function listArtifactTaskNumbers(q: Queryable, roomId: string, artifactNumber: number): Promise<number[]> {
  const rows = await q.all<{ task_number: number }>(
    'SELECT task_number FROM artifact_task_links WHERE room_id = ? AND artifact_number = ? ORDER BY task_number LIMIT ?',
    roomId, artifactNumber, LINKS_LIMIT,
  );
  return rows.map((r) => r.task_number);
}

/** Newest first (highest number), optionally only those linked to one task. */
export function listArtifactRows(q: Queryable, roomId: string, filter: { taskNumber?: number; limit: number }): Promise<ArtifactRow[]> {
  if (filter.taskNumber !== undefined) {
    return q.all<ArtifactRow>(
      `SELECT a.* FROM room_artifacts a JOIN artifact_task_links l
           ON l.room_id = a.room_id AND l.artifact_number = a.number
         WHERE a.room_id = ? AND l.task_number = ? ORDER BY a.number DESC LIMIT ?`,
      roomId, filter.taskNumber, filter.limit,
    );
  }
  return q.all<ArtifactRow>(
    'SELECT * FROM room_artifacts WHERE room_id = ? ORDER BY number DESC LIMIT ?',
    roomId, filter.limit,
  );
}
