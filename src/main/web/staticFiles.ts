// Serves the built renderer (out/renderer) read-only: GET/HEAD only, no directory
// traversal, symlinks cannot lead outside, a known content type for every file served.
// The window's app:// protocol finds its files through the same rules.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { setHardeningHeaders } from './securityHeaders';

type ContentTypes = Readonly<Record<string, string>>;

/** The built page and its assets: all the window's app:// protocol serves. */
export const PAGE_CONTENT_TYPES: ContentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

// The browser host also serves source maps and text files.
const WEB_CONTENT_TYPES: ContentTypes = {
  ...PAGE_CONTENT_TYPES,
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFiles {
  /** True when the request was for one of our files (answered), false to let others try. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
}

export function createStaticFiles(rendererDir: string): StaticFiles {
  const root = realpathSync(rendererDir);
  return {
    serve(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const found = findServedFile(root, req.url ?? '/', WEB_CONTENT_TYPES);
      if (found === 'bad') {
        answerPlain(res, 400, 'Bad request.');
        return true;
      }
      if (found === null) return false;
      const { file, type } = found;
      const size = statSync(file).size;
      setHardeningHeaders(res);
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Length', size);
      // Built assets have content hashes in their names; the page itself is always fresh.
      const immutable = file.startsWith(path.join(root, 'assets') + path.sep);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-store');
      res.writeHead(200);
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
      return true;
    },
  };
}

/**
 * The file under root a URL names and its content type; null when there is none or its
 * type is not in `types`, 'bad' for a malformed path.
 */
export function findServedFile(root: string, url: string, types: ContentTypes): { file: string; type: string } | null | 'bad' {
  const file = resolveFile(root, url);
  if (file === null || file === 'bad') return file;
  const type = types[path.extname(file).toLowerCase()];
  return type === undefined ? null : { file, type };
}

/** The file under root a URL names, null when there is none, 'bad' for a malformed path. */
function resolveFile(root: string, url: string): string | null | 'bad' {
  const pathname = url.split(/[?#]/, 1)[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 'bad';
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return 'bad';
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1);
  if (relative.split('/').some((part) => part === '..')) return 'bad';
  const candidate = path.resolve(root, relative);
  if (!isInside(root, candidate)) return 'bad';
  let real: string;
  try {
    real = realpathSync(candidate);
    if (!statSync(real).isFile()) return null;
  } catch {
    return null;
  }
  return isInside(root, real) ? real : null;
}

function isInside(root: string, file: string): boolean {
  return file.startsWith(root + path.sep);
}

export function answerPlain(res: ServerResponse, status: number, text: string): void {
  setHardeningHeaders(res);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}
