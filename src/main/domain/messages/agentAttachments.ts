// Attachments as agents receive them: metadata always, file content inlined (base64, plus
// a data URL for images) only up to 256 KiB per file.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { AttachmentRow } from '../../store/messageQueries';

export const MAX_INLINE_ATTACHMENT_BYTES = 256 * 1024;

export interface AgentAttachment {
  id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  url: null;
  download_url: null;
  data_url: string | null;
  content_base64: string | null;
}

/** The attachment with its content inlined when the file is small enough and readable. */
export function readAttachmentContent(row: AttachmentRow, dataDir?: string): AgentAttachment {
  const content = readSmallFile(row, dataDir);
  const base64 = content?.toString('base64') ?? null;
  return {
    id: row.attachment_id,
    file_name: row.file_name,
    mime_type: row.mime_type,
    size_bytes: row.size_bytes,
    url: null,
    download_url: null,
    data_url: base64 !== null && row.mime_type.startsWith('image/') ? `data:${row.mime_type};base64,${base64}` : null,
    content_base64: base64,
  };
}

function readSmallFile(row: AttachmentRow, dataDir?: string): Buffer | null {
  if (row.size_bytes > MAX_INLINE_ATTACHMENT_BYTES) return null;
  if (!isAbsolute(row.path) && !dataDir) return null;
  const path = dataDir ? resolve(dataDir, row.path) : row.path;
  try {
    // The row's size is metadata; the file on disk decides what is really read.
    if (statSync(path).size > MAX_INLINE_ATTACHMENT_BYTES) return null;
    return readFileSync(path);
  } catch {
    return null;
  }
}
