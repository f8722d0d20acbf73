// Attachments as agents receive them: metadata only. A row's `path` is never opened: a row
// can come from a teammate's app (team database) and could name any file of this computer
// (the agent token, the app's database, /etc). No file is read or removed because a row
// names it (issue 24); nothing stores attachment bytes yet, so content is always null.
import type { AttachmentRow } from '../../store/messageQueries';

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

/** The attachment as an agent sees it: its metadata, no content. */
export function toAgentAttachment(row: AttachmentRow): AgentAttachment {
  return {
    id: row.attachment_id,
    file_name: row.file_name,
    mime_type: row.mime_type,
    size_bytes: row.size_bytes,
    url: null,
    download_url: null,
    data_url: null,
    content_base64: null,
  };
}
