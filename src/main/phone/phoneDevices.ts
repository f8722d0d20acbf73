// Paired phones (issue 37): pairing makes a device key of the phone's own (32 random bytes it
// keeps in its page's storage); the app keeps only its SHA-256. A key opens nothing once its
// device is revoked. "Last seen" is written at most once a minute per device.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Storage } from '../store/port';
import { deletePhoneDevice, getPhoneDeviceByKeyHash, insertPhoneDevice, listPhoneDevices, touchPhoneDevice, type PhoneDeviceRow } from '../store/phoneQueries';

const TOUCH_EVERY_MS = 60_000;

export const hashDeviceKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export class PhoneDevices {
  private readonly touchedAt = new Map<string, number>();

  constructor(private readonly store: Storage) {}

  /** A new paired device; the key is handed to the phone once and never stored. */
  async pair(name: string, from: string): Promise<{ deviceId: string; key: string }> {
    const key = randomBytes(32).toString('base64url');
    const deviceId = randomUUID();
    await this.store.write((tx) => insertPhoneDevice(tx, { device_id: deviceId, name, key_hash: hashDeviceKey(key), paired_from: from }));
    return { deviceId, key };
  }

  /** The device whose key this is, or null (unknown, revoked, or no key at all). */
  async byKey(key: string | null): Promise<PhoneDeviceRow | null> {
    if (!key || key.length > 200) return null;
    return (await this.store.read((q) => getPhoneDeviceByKeyHash(q, hashDeviceKey(key)))) ?? null;
  }

  list(): Promise<PhoneDeviceRow[]> {
    return this.store.read((q) => listPhoneDevices(q));
  }

  async remove(deviceId: string): Promise<boolean> {
    this.touchedAt.delete(deviceId);
    return this.store.write((tx) => deletePhoneDevice(tx, deviceId));
  }

  /** Notes the device was seen from `from` now (written at most once a minute). */
  async seen(deviceId: string, from: string): Promise<void> {
    const now = Date.now();
    if (now - (this.touchedAt.get(deviceId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touchedAt.set(deviceId, now);
    await this.store.write((tx) => touchPhoneDevice(tx, deviceId, from), { bookkeeping: true, quiet: true });
  }
}
