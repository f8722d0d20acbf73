// A working directory no process can start in is a folder outside any repository, never an
// internal error (found by the hostile-input fuzz).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { startFuzzWorld, type FuzzWorld } from '../../reliability/lib/fuzzWorld';
import { callTool } from '../../reliability/lib/mcpCalls';

let world: FuzzWorld;
beforeAll(async () => void (world = await startFuzzWorld()));
afterAll(async () => {
  await world.close();
  await cleanupSpawned();
});

const UNSTARTABLE = [['a file', '/dev/null'], ['a NUL byte', 'repo\u0000dir'], ['a name too long', `/tmp/${'x'.repeat(300)}`]] as const;

it.each(UNSTARTABLE)('check_repo treats %s as a folder outside any repository', async (_what, cwd) => {
  expect(await callTool(world.a, 'check_repo', { cwd })).toMatchObject({ kind: 'ok', doc: { repo_context_status: 'not_inside_git_repo', git_repo_root: null } });
});
it.each(UNSTARTABLE)('initialize_repo answers R9 for %s', async (_what, cwd) => {
  expect(await callTool(world.a, 'initialize_repo', { cwd })).toMatchObject({ kind: 'soft', error: 'Not inside a git repository' });
});
it.each(UNSTARTABLE)('get_onboarding_status reports no repository for %s', async (_what, cwd) => {
  expect(await callTool(world.a, 'get_onboarding_status', { cwd })).toMatchObject({ kind: 'ok', doc: { repo_root: null } });
});
