// App restart (worker-handles.md §9, §11 case 30, as issue 27 changed it): bindings live only in
// memory, so after `serve` restarts on the same data folder the running helper reconnects by
// itself, answering calls meanwhile with "LetAgents is not running", and re-binds the chat's
// worker for it: the saved worker_id works again as the same session and name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, connectHelper, ensureCliBuilt, startServe, startServeAgain, tempDataDir, type HelperClient, type ServeHandle } from '../../support';
import { preparePlace } from '../../support/place';
import { call, hard, register, send, sessionRow, W12, type Registration } from './tools';

let serve: ServeHandle;
let placeEnv: Record<string, string>;
let teamUrl: string | null;
let chat: HelperClient;
let room: string;
let yarrow: Registration;

beforeAll(async () => {
  await ensureCliBuilt();
  const dataDir = tempDataDir();
  ({ env: placeEnv, teamUrl } = await preparePlace(dataDir));
  serve = await startServe({ dataDir, env: placeEnv });
  chat = await connectHelper(serve.dataDir, { clientName: 'restart-chat' });
  room = (await call(chat, 'join_room', { name: 'case-30' })).room_id;
  yarrow = await register(chat, { room_id: room, registration_key: 'case-30-key-4f7a9c2e81d6b035', display_name: 'Yarrow' });
  await send(chat, { worker_id: yarrow.worker_id, text: 'before the restart' });
}, 60_000);

afterAll(async () => {
  await chat?.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** Stops serve the given way and starts it again on the same data folder. */
async function restart(how: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const dataDir = serve.dataDir;
  if (how === 'SIGTERM') {
    await serve.stop('SIGTERM');
    serve = await startServe({ dataDir, env: placeEnv });
    return;
  }
  await serve.kill();
  serve = await startServeAgain(dataDir, [chat], { env: placeEnv });
}

/** Retries `attempt` while the helper answers that the app is not running yet (20 s at most). */
async function onceReconnected<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!/LetAgents is not running/.test(String(error)) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.each(['SIGTERM', 'SIGKILL'] as const)('after the app restarts (%s)', (how) => {
  it('case 30: until the helper is back a call says LetAgents is not running; then the saved worker_id works as the same session and name', async () => {
    await restart(how);
    // The helper process is the one the chat started before the restart.
    const sent = await onceReconnected(() => call(chat, 'send_message', { worker_id: yarrow.worker_id, text: 'am I still here?' }));
    expect(sent).not.toEqual(hard(W12));
    expect(sent).toMatchObject({ kind: 'message', agent_identity: { display_name: 'Yarrow', agent_session_id: yarrow.agent_session.session_id } });
    expect((await sessionRow({ dataDir: serve.dataDir, teamUrl }, yarrow.agent_session.session_id)).ended_at).toBeNull();

    const back = await register(chat, { worker_id: yarrow.worker_id, room_id: room });
    expect(back.worker_id).toBe(yarrow.worker_id);
    expect(back.agent_session).toMatchObject({ session_id: yarrow.agent_session.session_id, display_name: 'Yarrow' });
    expect(back.agent_session.actor_label).toBe(yarrow.agent_session.actor_label);
    await send(chat, { worker_id: yarrow.worker_id, text: `after the ${how} restart` });
  });
});
