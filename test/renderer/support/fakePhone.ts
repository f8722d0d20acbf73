// Phone access and notifications for the fake app API (issue 37): phone access off until
// turned on, pairing offers, paired phones; notification settings with the target kept apart
// (never sent back) as the keychain keeps it.
import type { ApiImplementation } from '../../../src/main/api/dispatcher';
import { appErrors } from '../../../src/main/domain/errors';
import type { NotifySettings } from '../../../src/shared/model/notifications';
import type { PhoneDevice, PhoneStatus } from '../../../src/shared/model/phone';

export interface FakePhone {
  status: PhoneStatus;
  notify: NotifySettings;
  /** What the keychain would hold: the target's full URL. */
  targetUrl: string | null;
}

export const FAKE_FINGERPRINT = '7C:D8:CD:FA:9D:A0:9E:E6:89:13:F6:29:CE:82:B2:DF:ED:E1:49:F2:37:63:AE:06:20:29:DA:8C:FB:DC:7A:38';

export function emptyPhone(devices: PhoneDevice[] = []): FakePhone {
  return {
    status: {
      enabled: false, listening: false, problem: null, addresses: ['192.168.1.20'],
      available: [{ address: '192.168.1.20', label: 'wlan0 (LAN)', kind: 'lan' }, { address: '127.0.0.1', label: 'Loopback only: for a reverse proxy on this computer', kind: 'loopback' }],
      port: 47821, externalOrigin: null, urls: [], certificate: null, devices,
    },
    notify: { target: null, kinds: { approval: true, blocked_task: true, cant_run: true, mention: true, turn_finished: false }, includeText: false, snoozedUntil: null, rooms: [] },
    targetUrl: null,
  };
}

export function phoneMethods(phone: FakePhone): Partial<ApiImplementation> {
  const listening = () => {
    const { enabled, addresses, port } = phone.status;
    Object.assign(phone.status, {
      listening: enabled,
      urls: enabled ? addresses.map((a) => `https://${a}:${port}`) : [],
      certificate: enabled ? { source: 'app', fingerprint: FAKE_FINGERPRINT, names: [...addresses, 'localhost'], validTo: '2029-01-01T00:00:00.000Z' } : null,
    });
    return structuredClone(phone.status);
  };
  return {
    'phone.status': () => structuredClone(phone.status),
    'phone.setup': (patch) => {
      Object.assign(phone.status, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
      return listening();
    },
    'phone.pair': () => {
      if (!phone.status.listening) throw appErrors.invalidInput('Turn phone access on first (Settings → Phone, or `letagents-desktop phone on`).');
      return { link: `${phone.status.urls[0]}/#pair=ABCDEFGH`, code: 'ABCD-EFGH', expiresAt: new Date(Date.now() + 120_000).toISOString(), fingerprint: FAKE_FINGERPRINT, qr: ['1110111', '1010101', '1110111', '0001000', '1110111', '1010101', '1110111'] };
    },
    'phone.revoke': ({ deviceId }) => {
      phone.status.devices = phone.status.devices.filter((d) => d.deviceId !== deviceId);
      return structuredClone(phone.status);
    },
    'notifications.get': () => structuredClone(phone.notify),
    'notifications.set': ({ kinds, includeText }) => {
      if (kinds) Object.assign(phone.notify.kinds, kinds);
      if (includeText !== undefined) phone.notify.includeText = includeText;
      return structuredClone(phone.notify);
    },
    'notifications.setTarget': (input) => {
      if (input.kind === 'none') {
        phone.targetUrl = null;
        phone.notify.target = null;
      } else {
        phone.targetUrl = input.url;
        phone.notify.target = { kind: input.kind, shownUrl: `${new URL(input.url).origin}/…` };
      }
      return structuredClone(phone.notify);
    },
    'notifications.setRoom': ({ roomId, place, level }) => {
      phone.notify.rooms = [...phone.notify.rooms.filter((r) => r.roomId !== roomId), { roomId, place: place ?? 'local', level: level ?? 'all', snoozedUntil: null }];
      return structuredClone(phone.notify);
    },
  };
}
