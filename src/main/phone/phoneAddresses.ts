// The addresses the phone listener may take (issue 37): an IPv4 address of one of this
// computer's network interfaces (the LAN), or a loopback address (127.x) for a reverse proxy
// the person runs on this computer (Tailscale Serve, Caddy). Never "every interface" (0.0.0.0):
// the person picks where the app is reachable.
import { networkInterfaces } from 'node:os';
import { isIPv4 } from 'node:net';
import type { PhoneAddress } from '../../shared/model/phone';

export const isLoopback = (address: string) => address.startsWith('127.');

/** This computer's IPv4 addresses, LAN ones first, then loopback. */
export function availableAddresses(interfaces = networkInterfaces()): PhoneAddress[] {
  const lan: PhoneAddress[] = [];
  for (const [name, entries] of Object.entries(interfaces)) {
    for (const entry of entries ?? []) {
      if (entry.family !== 'IPv4' || entry.internal || entry.address.startsWith('169.254.')) continue;
      lan.push({ address: entry.address, label: `${name} (LAN)`, kind: 'lan' });
    }
  }
  return [...lan, { address: '127.0.0.1', label: 'Loopback only: for a reverse proxy on this computer', kind: 'loopback' }];
}

/** Why `address` cannot be listened on, or null when it can. */
export function addressProblem(address: string, available = availableAddresses()): string | null {
  if (!isIPv4(address)) return `"${address}" is not an IPv4 address.`;
  if (address === '0.0.0.0') return 'Pick the addresses to listen on: "every interface" (0.0.0.0) would reach networks you did not choose.';
  if (isLoopback(address) || available.some((a) => a.address === address)) return null;
  return `${address} is not an address of this computer (its addresses: ${available.map((a) => a.address).join(', ')}).`;
}
