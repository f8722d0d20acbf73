// rooms.export: the whole room as one Markdown or JSON file — messages (threads in place,
// prompt-only rows left out, as people see them), the board, memory and requests.
// Messages are read a page at a time and turned into text right away, so a room of
// 100 000 messages never has all its rows in memory at once, only the file's text; the
// event loop gets a turn between pages, so agents' calls are not held up meanwhile.
import type { RoomExport } from '../../../shared/model/rooms';
import { getHumanRequests, type HumanRequest } from '../../domain/knowledge/requests';
import { listRoomFacts, type RoomFact } from '../../domain/knowledge/facts';
import { msgId } from '../../domain/ids';
import { isPromptOnly, pageAfter, type MessageRow } from '../../domain/messages/read';
import { requireRoom, type RoomRow } from '../../domain/rooms/rooms';
import { getBoard, type BoardTaskObject } from '../../domain/tasks';
import type { Queryable } from '../../store/port';
import { shortNameOf } from '../models/people';

const PAGE = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Calls `visit` with every people-visible message of the room, oldest first, a page at a time. */
async function forEachMessage(q: Queryable, roomId: string, visit: (row: MessageRow) => void): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await pageAfter(q, roomId, after, PAGE);
    for (const row of page) if (!isPromptOnly(row)) visit(row);
    if (page.length < PAGE) return;
    after = page[page.length - 1].number;
    await nextTurn();
  }
}

function fileNameOf(room: RoomRow, exportedAt: string, extension: string): string {
  const base = room.display_name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80) || 'room';
  return `${base}-${exportedAt.slice(0, 10)}.${extension}`;
}

interface RoomContents {
  room: RoomRow;
  tasks: BoardTaskObject[];
  facts: RoomFact[];
  requests: HumanRequest[];
}

async function contentsOf(q: Queryable, roomId: string): Promise<RoomContents> {
  return {
    room: await requireRoom(q, roomId),
    tasks: await getBoard(q, roomId, { openOnly: false }),
    facts: await listRoomFacts(q, roomId),
    requests: await getHumanRequests(q, roomId),
  };
}

export async function exportRoom(q: Queryable, roomId: string, format: 'markdown' | 'json', exportedAt: string): Promise<RoomExport> {
  const contents = await contentsOf(q, roomId);
  if (format === 'json') {
    return { fileName: fileNameOf(contents.room, exportedAt, 'json'), mimeType: 'application/json', content: await jsonExport(q, contents, exportedAt) };
  }
  return { fileName: fileNameOf(contents.room, exportedAt, 'md'), mimeType: 'text/markdown', content: await markdownExport(q, contents, exportedAt) };
}

async function jsonExport(q: Queryable, { room, tasks, facts, requests }: RoomContents, exportedAt: string): Promise<string> {
  const head = JSON.stringify({
    format: 'letagents-room-export',
    version: 1,
    exportedAt,
    room: { id: room.room_id, kind: room.kind, name: room.display_name, createdAt: room.created_at, archived: room.archived_at !== null },
    tasks,
    facts,
    requests,
  });
  const messages: string[] = [];
  await forEachMessage(q, room.room_id, (m) =>
    messages.push(
      JSON.stringify({
        id: msgId(m.number),
        kind: m.kind,
        source: m.source,
        sender: m.sender,
        text: m.text,
        createdAt: m.created_at,
        replyTo: m.reply_to_number === null ? null : msgId(m.reply_to_number),
        threadRoot: m.thread_root_number === null ? null : msgId(m.thread_root_number),
      }),
    ),
  );
  // The head is a complete object; the messages go in as its last member.
  return `${head.slice(0, -1)},"messages":[${messages.join(',')}]}\n`;
}

async function markdownExport(q: Queryable, { room, tasks, facts, requests }: RoomContents, exportedAt: string): Promise<string> {
  const out: string[] = [`# ${room.display_name}`, '', `Room \`${room.room_id}\` (${room.kind}) · exported ${exportedAt}`, ''];
  if (tasks.length > 0) {
    out.push('## Tasks', '');
    for (const t of tasks) out.push(`- **${t.id}** [${t.status}] ${t.title}${t.assignee ? ` — ${shortNameOf(t.assignee)}` : ''}`);
    out.push('');
  }
  if (facts.length > 0) {
    out.push('## Memory', '');
    for (const f of facts) out.push(`- **${f.id}** (${f.category}${f.retired_at ? ', retired' : ''}) ${f.title}: ${oneLine(f.body)}`);
    out.push('');
  }
  if (requests.length > 0) {
    out.push('## Requests', '');
    for (const r of [...requests].reverse()) {
      out.push(`- **${r.id}** [${r.status}] ${r.title} — asked by ${shortNameOf(r.requested_by)}`);
      if (r.answer) out.push(`  - Answer from ${r.answer.answered_by}: ${oneLine(r.answer.text)}`);
    }
    out.push('');
  }
  out.push('## Messages', '');
  await forEachMessage(q, room.room_id, (m) => {
    const where = m.thread_root_number !== null ? ` · in thread ${msgId(m.thread_root_number)}` : '';
    const reply = m.reply_to_number !== null && m.reply_to_number !== m.thread_root_number ? ` · reply to ${msgId(m.reply_to_number)}` : '';
    out.push(`**${shortNameOf(m.sender)}** · ${m.created_at} · ${msgId(m.number)}${where}${reply}`, '', m.text, '');
  });
  return out.join('\n');
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');
