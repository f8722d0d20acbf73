// Bad input to every tool of the registry through a real helper (issue: "bad input … gets a
// clear error and changes nothing"): wrong types, unknown and malformed ids, an unknown room,
// oversized text, and a forged worker_id — each with its exact phrase and kind
// (mcp-tools.md §2.5, §2.6), and the database unchanged, read from the file itself. The cases
// are each tool's, in toolCases.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../../../src/main/mcp/tools';
import { inputJsonSchema } from '../../../src/main/mcp/jsonSchema';
import { roomFacade } from '../../../src/main/mcp/toolKit';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, registerWorker, startApp, type Agent } from './harness';
import { type PlacedApp } from '../../support/place';
import { BAD_INPUT, BAD_INPUT_ROOM as ROOM, HUGE, M2, M6, T3 } from './toolCases';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let stranger: Agent;
let worker: string;
let taskId: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  stranger = await connectAgent(serve, { clientName: 'codex' });
  worker = (await registerWorker(ada, ROOM, 'Juniper')).workerId;
  taskId = (await ada.call('add_task', { worker_id: worker, title: 'A task to point at' })).task.id;
});

afterAll(async () => {
  await ada?.client.close();
  await stranger?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

describe('bad input to every tool', () => {
  it('has cases for every tool of the registry that takes input', () => {
    for (const tool of allTools) {
      const cases = BAD_INPUT[tool.name];
      expect(cases, `${tool.name} has no bad-input cases: add BAD_INPUT.${tool.name} to test/mcp/tools/toolCases.ts (each bad argument with the exact error it gets; [] if it takes no input)`).toBeDefined();
      // A field listed with an empty schema would accept anything: no input of it can be bad.
      const fields = Object.values((inputJsonSchema(tool.input).properties ?? {}) as Record<string, object>);
      if (fields.some((field) => Object.keys(field).length > 0)) {
        expect(cases.length, `${tool.name} takes input: give BAD_INPUT.${tool.name} in test/mcp/tools/toolCases.ts its bad arguments and the exact error each gets`).toBeGreaterThan(0);
      } else {
        expect(cases, `${tool.name} takes no input a schema could refuse: BAD_INPUT.${tool.name} is []`).toEqual([]);
      }
    }
    expect(Object.keys(BAD_INPUT).filter((name) => !allTools.some((t) => t.name === name)), 'cases of tools the registry does not have').toEqual([]);
  });

  it.each(Object.keys(BAD_INPUT).filter((tool) => BAD_INPUT[tool].length > 0))('%s: a clear error, nothing changed', async (tool) => {
    // The cases name task_1 (Ada's proposed task) and msg_1 (the room's first message) as existing ids.
    expect(taskId).toBe('task_1');
    await expectUnchanged(serve, async () => {
      for (const [args, expected, who] of BAD_INPUT[tool]) {
        const asWorker = hasFacade(tool) && !('worker_id' in args);
        const outcome = await (who === 'no-worker' ? stranger : ada).call(tool, asWorker && who !== 'no-worker' ? { worker_id: worker, ...args } : args);
        try {
          if ('soft' in expected) expectSoft(outcome, expected.soft);
          else expectHard(outcome, expected.hard);
        } catch (error) {
          throw new Error(`${tool}(${JSON.stringify(args).slice(0, 160)}): ${(error as Error).message}`);
        }
      }
    });
  });
});

/** The room tools (toolKit's roomFacade), whose bad input is sent as Ada's worker; the others are called exactly as given. */
function hasFacade(tool: string): boolean {
  return allTools.find((t) => t.name === tool)?.input.worker_id === roomFacade.worker_id;
}

describe('bad input from a connection that has no session in the room yet', () => {
  it('creates no implicit session and posts no "joined" event when the write fails', async () => {
    const fresh = await connectAgent(serve, { clientName: 'opencode' });
    await fresh.call('join_room', { name: ROOM });
    await expectUnchanged(serve, async () => {
      expectHard(await fresh.call('send_message', { text: HUGE }), M6);
      expectHard(await fresh.call('send_message', { text: 'x', reply_to: 'msg_99999' }), M2);
      expectHard(await fresh.call('add_task', { title: '  ' }), 'Task title is required.');
      expectSoft(await fresh.call('claim_task', { task_id: 'task_999' }), T3);
      expectHard(await fresh.call('publish_room_artifact', { artifact: { provider: 'github', kind: 'issue' } }), 'An artifact needs at least one of url, id, number or ref.');
    });
    await fresh.client.close();
  });
});
