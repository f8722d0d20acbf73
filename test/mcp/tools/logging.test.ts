// MCP logging through real helpers against a real serve: the server declares the logging
// capability, accepts logging/setLevel, and wait_for_messages logs what woke it ("woke on
// msg_N") as notifications/message, filtered by the level the client set.
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, registerWorker, startApp, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const ROOM = 'logging-room';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let bob: Agent;
let adaWorker: string;
let bobWorker: string;
const notes: LoggingMessageNotification['params'][] = [];

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  bob = await connectAgent(serve, { clientName: 'codex' });
  adaWorker = (await registerWorker(ada, ROOM, 'Juniper')).workerId;
  bobWorker = (await registerWorker(bob, ROOM, 'Cedar')).workerId;
  bob.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notes.push(n.params));
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** Bob waits from his cursor while Ada posts; returns the wait's result. */
async function wokenBy(text: string) {
  const cursor = (await bob.call('wait_for_messages', { worker_id: bobWorker, timeout: 1_000 })).last_observed_message_id;
  const waiting = bob.call('wait_for_messages', { worker_id: bobWorker, after_message_id: cursor, timeout: 30_000 });
  // No pause for the wait to be in flight: from the cursor it returns Ada's message, and logs
  // what woke it, whether it reaches the app before or after her send.
  await ada.call('send_message', { worker_id: adaWorker, text });
  return waiting;
}

describe('logging', () => {
  it('declares the capability and notes what woke a wait, at info level', async () => {
    expect(bob.client.getServerCapabilities()?.logging).toEqual({});
    await bob.client.setLoggingLevel('info');
    notes.length = 0;
    const result = await wokenBy('@Cedar wake up');
    const woke = result.messages[0].id;
    expect(notes).toContainEqual({ level: 'info', logger: 'letagents', data: `woke on ${woke} in ${ROOM}` });
  });

  it('sends nothing below the level the client set', async () => {
    await bob.client.setLoggingLevel('warning');
    notes.length = 0;
    await wokenBy('@Cedar again');
    await bob.call('wait_for_messages', { worker_id: bobWorker, timeout: 1_000 });
    expect(notes).toEqual([]);
    await bob.client.setLoggingLevel('debug');
    await bob.call('wait_for_messages', { worker_id: bobWorker, after_message_id: 'msg_999999', timeout: 1_000 });
    expect(notes).toContainEqual({ level: 'debug', logger: 'letagents', data: `no new message for you in ${ROOM}` });
  });
});
