// Room tools through a real helper (mcp-tools.md §3): create_room, join_code, join_room,
// get_current_room, resume_room_session — result shapes, the join prompt, and each
// tool's own soft failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, tempDir, type ServeHandle } from '../../support';
import { connectAgent, expectSoft, expectUnchanged, startApp, type Agent } from './harness';
import { TEST_PLACE, type PlacedApp } from '../../support/place';

const ROOM_RESPONSE_KEYS = ['agent_identity', 'agent_prompt', 'agent_prompt_kind', 'code', 'display_name', 'is_local', 'joined_via', 'kind', 'place', 'room_id'];
/** Rooms are this computer's, or (team variant) the suite team's. */
const here = { is_local: TEST_PLACE === 'local', place: TEST_PLACE };
const IDENTITY_KEYS = ['actor_label', 'agent_key', 'agent_session_id', 'display_name', 'ide_label', 'owner_label', 'source'];
const keys = (o: object) => Object.keys(o).sort();

let serve: ServeHandle & PlacedApp;
let ada: Agent;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
});

afterAll(async () => {
  await ada?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

function expectJoinPrompt(prompt: string): void {
  // §3: the five things the join prompt must say.
  for (const phrase of ['register_agent_session', 'registration_key', 'codename', 'worker_id', 'wait_for_messages', 'last_observed_message_id', 'get_board', 'claim_task', 'complete_task', 'post_status']) {
    expect(prompt).toContain(phrase);
  }
  expect(prompt).toMatch(/restart/i);
}

describe('create_room', () => {
  it('creates an invite room with a fresh code and makes it current', async () => {
    const room = await ada.call('create_room');
    expect(keys(room)).toEqual(ROOM_RESPONSE_KEYS);
    expect(room.room_id).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(room).toMatchObject({ code: room.room_id, kind: 'invite', ...here, joined_via: 'join_code', agent_prompt_kind: 'join', display_name: `Room ${room.room_id}` });
    expect(keys(room.agent_identity)).toEqual(IDENTITY_KEYS);
    expect(room.agent_identity).toMatchObject({ agent_session_id: null, source: 'local', ide_label: 'Claude Code' });
    expectJoinPrompt(room.agent_prompt);
    const other = await ada.call('create_room');
    expect(other.room_id).not.toBe(room.room_id);
    expect((await ada.call('get_current_room')).room_id).toBe(other.room_id);
  });
});

describe('join_code', () => {
  it('joins an existing invite room from a trimmed, lower-case code', async () => {
    const created = await ada.call('create_room');
    const bob = await connectAgent(serve, { clientName: 'codex' });
    const joined = await bob.call('join_code', { code: `  ${created.code.toLowerCase()} `, session_mode: 'live' });
    expect(keys(joined)).toEqual([...ROOM_RESPONSE_KEYS, 'session_mode'].sort());
    expect(joined).toMatchObject({ room_id: created.room_id, code: created.room_id, kind: 'invite', joined_via: 'join_code', session_mode: 'current' });
    expect((await bob.call('get_current_room')).room_id).toBe(created.room_id);
    await bob.client.close();
  });

  it('refuses a malformed code (R5) and an unknown one (R3), softly, creating nothing', async () => {
    await expectUnchanged(serve, async () => {
      expectSoft(await ada.call('join_code', { code: 'not a code' }), 'Invalid join code. Expected a code like ABCX-7291.');
      expectSoft(await ada.call('join_code', { code: 'ZZZZ-0000' }), 'Room not found.');
    });
  });
});

describe('join_room', () => {
  it('creates a named room once, then joins it', async () => {
    const first = await ada.call('join_room', { name: '  launch plan  ' });
    expect(keys(first)).toEqual([...ROOM_RESPONSE_KEYS, 'created', 'session_mode'].sort());
    expect(first).toMatchObject({ room_id: 'launch plan', kind: 'named', code: null, joined_via: 'join_room', created: true, display_name: 'launch plan' });
    expectJoinPrompt(first.agent_prompt);
    const again = await ada.call('join_room', { name: 'launch plan' });
    expect(again).toMatchObject({ room_id: 'launch plan', created: false });
  });

  it('refuses a named room one typo away from a room that exists, naming it; asked again, creates it', async () => {
    await ada.call('join_room', { name: 'design-review' });
    const typo = await expectUnchanged(serve, () => ada.call('join_room', { name: 'design-revew' }));
    expectSoft(typo, 'There is no room "design-revew"; did you mean "design-review"? Nothing was created.', { did_you_mean: ['design-review'] });
    expect(typo.hint).toContain('call join_room with that name again');
    const meant = await ada.call('join_room', { name: 'design-revew' });
    expect(meant).toMatchObject({ room_id: 'design-revew', created: true });
    // A room id a tool cannot find names the nearest rooms of this computer too (an unknown id is looked for here).
    const unknown = await ada.call('read_messages', { room_id: 'design-review2' });
    expectSoft(unknown, 'Room not found.', TEST_PLACE === 'local' ? { did_you_mean: ['design-review', 'design-revew'] } : {});
  });

  it('normalises a git remote or github.com name to the repo room', async () => {
    const viaUrl = await ada.call('join_room', { name: 'https://github.com/Acme/Gadget.git' });
    expect(viaUrl).toMatchObject({ room_id: 'github.com/acme/gadget', kind: 'repo', created: true });
    const viaName = await ada.call('join_room', { name: 'GitHub.com/ACME/gadget' });
    expect(viaName).toMatchObject({ room_id: 'github.com/acme/gadget', created: false });
  });

  it('treats an invite-shaped name as join_code, and never creates an invite room', async () => {
    const created = await ada.call('create_room');
    const joined = await ada.call('join_room', { name: created.code.toLowerCase() });
    expect(joined).toMatchObject({ room_id: created.room_id, kind: 'invite', joined_via: 'join_code', created: false });
    await expectUnchanged(serve, async () => expectSoft(await ada.call('join_room', { name: 'QQQQ-1234' }), 'Room not found.'));
  });

  it('refuses a bad room name (R6) softly and creates nothing', async () => {
    await expectUnchanged(serve, async () => {
      for (const name of ['bell\u0007room', 'x'.repeat(513), '   ']) {
        const result = await ada.call('join_room', { name });
        expect(result.success, name.slice(0, 20)).toBe(false);
        if (name.trim()) expectSoft(result, 'Room id must be 1–512 characters with no control characters.');
      }
    });
  });
});

describe('get_current_room', () => {
  it('reports no room on a fresh connection', async () => {
    const fresh = await connectAgent(serve);
    expect(await fresh.call('get_current_room', { conversation_id: 'ignored' })).toEqual({ connected: false, message: 'Not currently in any room' });
    await fresh.client.close();
  });

  it('reports the current room with its prompt and no sign-in', async () => {
    await ada.call('join_room', { name: 'current-room-check' });
    const current = await ada.call('get_current_room');
    expect(keys(current)).toEqual(
      ['agent_identity', 'agent_prompt', 'agent_prompt_kind', 'auth', 'code', 'connected', 'display_name', 'git_room', 'is_local', 'joined_via', 'kind', 'place', 'room_id'],
    );
    expect(current).toMatchObject({ connected: true, room_id: 'current-room-check', code: null, kind: 'named', git_room: false, joined_via: 'join_room', ...here, auth: null, agent_prompt_kind: 'join' });
    expectJoinPrompt(current.agent_prompt);
  });
});

describe('resume_room_session', () => {
  it('rejoins the saved room of the same client name and working directory, with its last seen message', async () => {
    const cwd = tempDir('la-resume-');
    const before = await connectAgent(serve, { cwd, clientName: 'cursor' });
    await before.call('join_room', { name: 'resume-me' });
    await before.call('send_message', { text: 'a note before the restart' });
    const read = await before.call('read_messages');
    const newest = read.messages.at(-1).id;
    await before.client.close();

    const after = await connectAgent(serve, { cwd, clientName: 'cursor' });
    const resumed = await after.call('resume_room_session');
    expect(keys(resumed)).toEqual(
      ['agent_identity', 'agent_prompt', 'agent_prompt_kind', 'last_message_id_before_restart', 'rejoined_from_local_state', 'room', 'server_session_resumed', 'success'],
    );
    expect(resumed).toMatchObject({ success: true, rejoined_from_local_state: true, server_session_resumed: false, last_message_id_before_restart: newest, agent_prompt_kind: 'join' });
    expect(resumed.room).toMatchObject({ room_id: 'resume-me', joined_via: 'join_room', kind: 'named' });
    expect(keys(resumed.room)).toEqual(ROOM_RESPONSE_KEYS);
    expect((await after.call('get_current_room')).room_id).toBe('resume-me');
    // A room the client joined before can be named.
    await after.call('join_room', { name: 'elsewhere' });
    expect((await after.call('resume_room_session', { room_id: 'resume-me' })).room.room_id).toBe('resume-me');
    await after.client.close();
  });

  it('answers R7 softly for a client with no saved session, or a room it never joined', async () => {
    const stranger = await connectAgent(serve, { clientName: 'windsurf' });
    await expectUnchanged(serve, async () => {
      expectSoft(await stranger.call('resume_room_session'), 'No saved room session found.');
      expectSoft(await stranger.call('resume_room_session', { room_id: 'launch plan' }), 'No saved room session found.');
    });
    expect(await stranger.call('get_current_room')).toEqual({ connected: false, message: 'Not currently in any room' });
    await stranger.client.close();
  });
});
