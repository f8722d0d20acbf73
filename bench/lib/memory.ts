// Resident memory of another process, read from /proc (Linux), in MB.
import { readFileSync } from 'node:fs';

/** VmRSS of `pid` in MB, or null where /proc is unavailable. */
export function residentMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null;
  }
}
