// SQL for room artifacts (publish_room_artifact, get_room_artifacts) and their task links.
import type { Db } from './database';
import type { Tx } from './store';

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

export function findArtifactRow(db: Db, roomId: string, provider: string, kind: string, identity: string): ArtifactRow | undefined {
  return db
    .prepare('SELECT * FROM room_artifacts WHERE room_id = ? AND provider = ? AND kind = ? AND identity_value = ?')
    .get(roomId, provider, kind, identity) as ArtifactRow | undefined;
}

export function getArtifactRow(db: Db, roomId: string, number: number): ArtifactRow | undefined {
  return db.prepare('SELECT * FROM room_artifacts WHERE room_id = ? AND number = ?').get(roomId, number) as ArtifactRow | undefined;
}

export function insertArtifactRow(
  tx: Tx, a: Pick<ArtifactRow, 'room_id' | 'number' | 'provider' | 'kind' | 'identity_value' | 'artifact_json' | 'published_by'>,
): void {
  tx.db
    .prepare(
      `INSERT INTO room_artifacts (room_id, number, provider, kind, identity_value, artifact_json, published_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(a.room_id, a.number, a.provider, a.kind, a.identity_value, a.artifact_json, a.published_by, tx.now, tx.now);
}

export function updateArtifactJson(tx: Tx, roomId: string, number: number, json: string): void {
  tx.db
    .prepare('UPDATE room_artifacts SET artifact_json = ?, updated_at = ? WHERE room_id = ? AND number = ?')
    .run(json, tx.now, roomId, number);
}

export function touchArtifactRow(tx: Tx, roomId: string, number: number): void {
  tx.db.prepare('UPDATE room_artifacts SET updated_at = ? WHERE room_id = ? AND number = ?').run(tx.now, roomId, number);
}

/** Links tasks to an artifact; returns how many links are new. */
export function addArtifactTaskLinks(tx: Tx, roomId: string, artifactNumber: number, taskNumbers: readonly number[]): number {
  const insert = tx.db.prepare('INSERT OR IGNORE INTO artifact_task_links (room_id, artifact_number, task_number) VALUES (?, ?, ?)');
  let added = 0;
  for (const n of taskNumbers) added += insert.run(roomId, artifactNumber, n).changes;
  return added;
}

export function listArtifactTaskNumbers(db: Db, roomId: string, artifactNumber: number): number[] {
  const rows = db
    .prepare('SELECT task_number FROM artifact_task_links WHERE room_id = ? AND artifact_number = ? ORDER BY task_number LIMIT ?')
    .all(roomId, artifactNumber, LINKS_LIMIT) as { task_number: number }[];
  return rows.map((r) => r.task_number);
}

/** Newest first (highest number), optionally only those linked to one task. */
export function listArtifactRows(db: Db, roomId: string, filter: { taskNumber?: number; limit: number }): ArtifactRow[] {
  if (filter.taskNumber !== undefined) {
    return db
      .prepare(
        `SELECT a.* FROM room_artifacts a JOIN artifact_task_links l
           ON l.room_id = a.room_id AND l.artifact_number = a.number
         WHERE a.room_id = ? AND l.task_number = ? ORDER BY a.number DESC LIMIT ?`,
      )
      .all(roomId, filter.taskNumber, filter.limit) as ArtifactRow[];
  }
  return db
    .prepare('SELECT * FROM room_artifacts WHERE room_id = ? ORDER BY number DESC LIMIT ?')
    .all(roomId, filter.limit) as ArtifactRow[];
}
