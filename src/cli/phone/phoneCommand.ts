// `letagents-desktop phone on|off|pair|list|revoke`: phone access (issue 37) from the command
// line, through the running app (which owns the listener and the paired devices), like `agent`.
import type { ApiResult } from '../../shared/bridge';
import type { PairingOffer, PhoneDevice, PhoneStatus } from '../../shared/model/phone';
import { helperDataDir } from '../../shared-node/dataPaths';
import { wantsHelp } from '../help';
import { callApp, NoAppError } from '../appApi';
import { didYouMean, parseCommandArgs, UsageError, usageErrorText } from '../usage';
import { qrText } from './qrText';

export const PHONE_USAGE = `usage: letagents-desktop phone <action> [options] [--data-dir D] [--json]

Your phone learns when an agent needs you, and answers it, over your own network.

  on [--address IP ...] [--port N] [--external-origin URL]
                  turn phone access on: an HTTPS listener on the addresses you pick
                  (a LAN address of this computer; or 127.0.0.1 behind your own
                  reverse proxy, with --external-origin https://… it serves).
                  Without --address: the first LAN address. Port: 47821
  off             turn it off: the listener and every open phone page close
  pair [--address IP]
                  a one-time pairing link, its QR code and a code to type (two
                  minutes, single use), with the certificate's fingerprint
  list            paired phones: name, when last seen and from where
  revoke PHONE    unpair a phone (its name or id): its open pages close at once
`;

const ACTIONS = ['on', 'off', 'pair', 'list', 'revoke'] as const;

class AppRefusal extends Error {}

export async function runPhone(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === undefined || action === 'help' || wantsHelp(argv)) {
    (action === undefined ? process.stderr : process.stdout).write(PHONE_USAGE);
    return action === undefined ? 2 : 0;
  }
  try {
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown action "${action}"${didYouMean(action, ACTIONS)}`);
    const { values, positionals } = parseCommandArgs(rest, {
      'data-dir': { type: 'string' }, json: { type: 'boolean', default: false },
      address: { type: 'string', multiple: true }, port: { type: 'string' }, 'external-origin': { type: 'string' },
    }, true);
    if (action !== 'on' && (values.port !== undefined || values['external-origin'] !== undefined)) throw new UsageError('--port and --external-origin belong to `phone on`');
    if (action !== 'on' && action !== 'pair' && values.address) throw new UsageError('--address belongs to `phone on` and `phone pair`');
    if (action !== 'revoke' && positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const dataDir = helperDataDir(values['data-dir']);
    const call = async <T>(method: string, input: unknown): Promise<T> => unwrap<T>(await callApp(dataDir, method, input));
    const print = (value: unknown, text: string) => process.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : text);

    if (action === 'on') {
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !Number.isInteger(port)) throw new UsageError(`--port must be a number, not "${values.port}"`);
      const status = await call<PhoneStatus>('phone.setup', {
        enabled: true,
        ...(values.address ? { addresses: values.address } : {}),
        ...(port !== undefined ? { port } : {}),
        ...(values['external-origin'] !== undefined ? { externalOrigin: values['external-origin'] || null } : {}),
      });
      print(status, statusText(status));
      return status.listening ? 0 : 1;
    }
    if (action === 'off') {
      const status = await call<PhoneStatus>('phone.setup', { enabled: false });
      print(status, 'Phone access is off: nothing listens for phones, and their open pages were closed.\n');
      return 0;
    }
    if (action === 'pair') {
      if ((values.address?.length ?? 0) > 1) throw new UsageError('give one --address to pair through');
      const offer = await call<PairingOffer>('phone.pair', values.address ? { address: values.address[0] } : {});
      print(offer, pairingText(offer));
      return 0;
    }
    const status = await call<PhoneStatus>('phone.status', {});
    if (action === 'list') {
      print(status.devices, status.devices.length === 0 ? `No phones are paired. ${status.listening ? '`letagents-desktop phone pair` pairs one.' : 'Turn phone access on with `letagents-desktop phone on`, then pair.'}\n` : deviceTable(status.devices));
      return 0;
    }
    const wanted = positionals[0];
    if (wanted === undefined) throw new UsageError('which phone? Give its name or id (`phone list` shows them)');
    const device = findDevice(status.devices, wanted);
    const after = await call<PhoneStatus>('phone.revoke', { deviceId: device.deviceId });
    print(after, `Unpaired ${device.name}: its key opens nothing now${device.connected ? ', and its open page was closed' : ''}.\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(usageErrorText(`phone ${action}`, error).replace(`phone ${action} --help`, 'phone --help'));
      return 2;
    }
    if (error instanceof NoAppError || error instanceof AppRefusal) {
      process.stderr.write(`letagents-desktop phone: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function unwrap<T>(result: ApiResult): T {
  if (!result.ok) throw new AppRefusal(result.error.message);
  return result.value as T;
}

function statusText(status: PhoneStatus): string {
  if (!status.listening) return `Phone access is on, but it does not listen: ${status.problem ?? 'see the app log'}\n`;
  return (
    `Phone access is on at ${status.urls.join(', ')}\n` +
    `Certificate (${status.certificate?.source === 'person' ? 'yours' : "the app's own"}) SHA-256 fingerprint:\n  ${status.certificate?.fingerprint ?? '?'}\n` +
    'Pair a phone with `letagents-desktop phone pair`.\n'
  );
}

function pairingText(offer: PairingOffer): string {
  const until = new Date(offer.expiresAt).toLocaleTimeString();
  const origin = offer.link.slice(0, offer.link.indexOf('/#'));
  return (
    `Scan this with your phone, or open the link on it:\n\n${qrText(offer.qr)}\n  ${offer.link}\n\n` +
    `Or open ${origin} and type the code ${offer.code}. It works once, until ${until}.\n` +
    `The phone's pairing page shows the certificate's fingerprint; it must be:\n  ${offer.fingerprint}\n` +
    "The phone's browser warns about the certificate the first time (the app made it itself): compare the fingerprint, then go on.\n"
  );
}

function findDevice(devices: PhoneDevice[], wanted: string): PhoneDevice {
  const byId = devices.find((d) => d.deviceId === wanted);
  if (byId) return byId;
  const named = devices.filter((d) => d.name.toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return named[0];
  if (named.length > 1) throw new AppRefusal(`${named.length} phones are named "${wanted}"; use an id: ${named.map((d) => d.deviceId).join(', ')}`);
  throw new AppRefusal(`no paired phone is named "${wanted}". \`letagents-desktop phone list\` shows them.`);
}

function deviceTable(devices: PhoneDevice[]): string {
  const rows = [
    ['NAME', 'LAST SEEN', 'FROM', 'PAIRED', 'OPEN NOW', 'ID'],
    ...devices.map((d) => [d.name, d.lastSeenAt ?? 'never', d.lastSeenFrom ?? d.pairedFrom, d.pairedAt, d.connected ? 'yes' : 'no', d.deviceId]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
}
