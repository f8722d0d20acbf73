// SQL for paired phones (issue 37): a device is named, remembers when and where from it was
// paired and last seen, and keeps only a hash of its device key. Portable SQL; lists bounded.
import type { Queryable, Tx } from './port';

export interface PhoneDeviceRow {
  device_id: string;
  name: string;
  key_hash: string;
  paired_at: string;
  paired_from: string;
  last_seen_at: string | null;
  last_seen_from: string | null;
}

const MAX_DEVICES = 100;

export async function insertPhoneDevice(tx: Tx, row: Pick<PhoneDeviceRow, 'device_id' | 'name' | 'key_hash' | 'paired_from'>): Promise<void> {
  await tx.run(
    'INSERT INTO phone_devices (device_id, name, key_hash, paired_at, paired_from, last_seen_at, last_seen_from) VALUES (?, ?, ?, ?, ?, ?, ?)',
    row.device_id, row.name, row.key_hash, tx.now, row.paired_from, tx.now, row.paired_from,
  );
}

export function getPhoneDeviceByKeyHash(q: Queryable, keyHash: string): Promise<PhoneDeviceRow | undefined> {
  return q.get<PhoneDeviceRow>('SELECT * FROM phone_devices WHERE key_hash = ?', keyHash);
}

export function listPhoneDevices(q: Queryable): Promise<PhoneDeviceRow[]> {
  return q.all<PhoneDeviceRow>(`SELECT * FROM phone_devices ORDER BY paired_at, device_id LIMIT ${MAX_DEVICES}`);
}

export function countPhoneDevices(q: Queryable): Promise<number> {
  return q.get<{ n: number }>('SELECT COUNT(*) AS n FROM phone_devices').then((row) => row?.n ?? 0);
}

/** Forgets a device (its key opens nothing any more); false when there was none. */
export async function deletePhoneDevice(tx: Tx, deviceId: string): Promise<boolean> {
  const { changes } = await tx.run('DELETE FROM phone_devices WHERE device_id = ?', deviceId);
  return changes > 0;
}

export async function touchPhoneDevice(tx: Tx, deviceId: string, from: string): Promise<void> {
  await tx.run('UPDATE phone_devices SET last_seen_at = ?, last_seen_from = ? WHERE device_id = ?', tx.now, from, deviceId);
}
