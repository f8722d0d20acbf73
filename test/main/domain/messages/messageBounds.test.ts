import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../../src/main/domain/messages/agentMessages';
import {
  COMPACT_TEXT_BYTES,
  MAX_LIST_BYTES,
  boundMessageList,
  compactLargeMessage,
  messageJsonBytes,
} from '../../../../src/main/domain/messages/messageBounds';

function message(n: number, text: string, extra: Partial<AgentMessage> = {}): AgentMessage {
  return {
    id: `msg_${n}`,
    kind: 'message',
    source: 'human',
    sender: 'Ada',
    text,
    timestamp: '2026-05-01T09:30:00.000Z',
    agent_identity: null,
    agent_prompt_kind: null,
    attachments: [],
    reply_to: null,
    ...extra,
  };
}

const ids = (list: AgentMessage[]) => list.map((m) => m.id);

describe('bounding a message list to 2 MiB of JSON', () => {
  const hundredKiB = 'x'.repeat(100 * 1024);
  const many = Array.from({ length: 30 }, (_, i) => message(i + 1, hundredKiB)); // ~3 MiB

  it('keeps everything when it fits', () => {
    const small = [message(1, 'a'), message(2, 'b')];
    expect(boundMessageList(small, 'newest')).toEqual({ messages: small, truncated: false, omittedCount: 0 });
  });

  it('cursor reads keep the oldest prefix', () => {
    const bounded = boundMessageList(many, 'oldest');
    expect(bounded.truncated).toBe(true);
    expect(bounded.messages[0].id).toBe('msg_1');
    expect(ids(bounded.messages)).toEqual(ids(many.slice(0, bounded.messages.length)));
    expect(bounded.omittedCount).toBe(30 - bounded.messages.length);
    expect(JSON.stringify(bounded.messages).length).toBeLessThanOrEqual(MAX_LIST_BYTES);
  });

  it('tail reads keep the newest suffix', () => {
    const bounded = boundMessageList(many, 'newest');
    expect(bounded.messages.at(-1)?.id).toBe('msg_30');
    expect(ids(bounded.messages)).toEqual(ids(many.slice(30 - bounded.messages.length)));
    expect(bounded.omittedCount).toBeGreaterThan(0);
  });

  it('counts bytes, not characters', () => {
    const wide = Array.from({ length: 3 }, (_, i) => message(i + 1, 'é'.repeat(1000)));
    const size = messageJsonBytes(wide[0]);
    expect(size).toBeGreaterThan(2000);
    const bounded = boundMessageList(wide, 'oldest', 2 + size * 2 + 1);
    expect(ids(bounded.messages)).toEqual(['msg_1', 'msg_2']);
    expect(JSON.stringify(bounded.messages)).toHaveLength(2 + 2 * JSON.stringify(wide[0]).length + 1);
  });
});

describe('compacting a message over 512 KiB', () => {
  it('cuts the text to 64 KiB, drops inline attachment content and says so', () => {
    const attachment = {
      id: 'a1', file_name: 'p.png', mime_type: 'image/png', size_bytes: 200_000, url: null, download_url: null,
      data_url: `data:image/png;base64,${'A'.repeat(270_000)}`, content_base64: 'A'.repeat(270_000),
    };
    const big = message(1, '😀'.repeat(60_000), { attachments: [attachment], agent_prompt_kind: 'inline', visible_text: 'v'.repeat(100_000), agent_prompt: 'p', prompt_injected: true });
    const compacted = compactLargeMessage(big);
    expect(compacted.content_truncated).toBe(true);
    expect(Buffer.byteLength(compacted.text)).toBeLessThanOrEqual(COMPACT_TEXT_BYTES);
    expect(Buffer.byteLength(compacted.text)).toBeGreaterThan(COMPACT_TEXT_BYTES - 4);
    expect(compacted.text).toBe('😀'.repeat(COMPACT_TEXT_BYTES / 4));
    expect(compacted.visible_text).toHaveLength(COMPACT_TEXT_BYTES);
    expect(compacted.attachments[0]).toEqual({ ...attachment, data_url: null, content_base64: null });
    expect(big.content_truncated).toBeUndefined();
  });

  it('leaves messages up to 512 KiB alone', () => {
    const m = message(1, 'x'.repeat(262_144));
    expect(compactLargeMessage(m)).toBe(m);
  });

  it('bounding compacts large messages first', () => {
    const content = 'A'.repeat(600_000);
    const m = message(1, 'text', { attachments: [{ id: 'a', file_name: 'f', mime_type: 'text/plain', size_bytes: 1, url: null, download_url: null, data_url: null, content_base64: content }] });
    const bounded = boundMessageList([m], 'newest');
    expect(bounded.messages[0]).toMatchObject({ content_truncated: true, text: 'text' });
    expect(bounded.truncated).toBe(false);
  });
});
