// Reading a file an agent may have made in its worktree: only a regular file itself is read
// (a symbolic link is never followed, a FIFO or a device never opened for long), at most a
// given number of bytes, off the event loop. A link to /dev/zero or to a FIFO costs nothing.
import { constants } from 'node:fs';
import { open, readlink } from 'node:fs/promises';

export type FileRead =
  | { readonly kind: 'file'; readonly size: number; /** The first bytes, up to the limit asked for. */ readonly bytes: Buffer }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'folder' | 'special' | 'missing' };

// O_NOFOLLOW: a link fails to open (ELOOP) instead of opening its target. O_NONBLOCK: a FIFO
// opens at once instead of waiting for a writer. Neither exists on Windows (no FIFOs there).
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export async function readRegularFile(path: string, maxBytes: number): Promise<FileRead> {
  let handle;
  try {
    handle = await open(path, FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'link', target: await readlink(path).catch(() => '?') };
    return { kind: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'special' };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { kind: 'folder' };
    if (!stat.isFile()) return { kind: 'special' };
    const bytes = Buffer.alloc(Math.min(stat.size, maxBytes));
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { kind: 'file', size: stat.size, bytes: bytes.subarray(0, read) };
  } finally {
    await handle.close();
  }
}
