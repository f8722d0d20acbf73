// Workflow artifacts on tasks (data-model.md §4.6) and room artifacts (mcp-tools.md §6).
import { describe, expect, it } from 'vitest';
import { addTask, getTask, listRoomArtifacts, publishRoomArtifact, updateTask } from '../../../../src/main/domain/tasks';
import { ROOM, OTHER_ROOM, eventTexts, expectRefused, makeWorld } from './world';

const pr = { provider: 'github', kind: 'pull_request', number: 12, url: 'https://github.com/o/r/pull/12', title: 'Fix login' };

async function withTasks(count = 2) {
  const world = await makeWorld();
  const a = world.agent('Juniper');
  for (let i = 0; i < count; i++) await world.write((tx) => addTask(tx, ROOM, a, { title: `t${i + 1}` }));
  return { world, a };
}

describe('workflow artifacts on a task', () => {
  it('are stored with every key, and a write replaces the list', async () => {
    const { world, a } = await withTasks(1);
    await world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: [pr, { provider: 'gitlab', kind: 'branch', ref: 'fix' }] }));
    await world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: [{ provider: 'unknown', kind: 'issue', id: 'X-1' }] }));
    expect((await getTask(world.q, ROOM, 1)).workflow_artifacts).toEqual([
      { provider: 'unknown', kind: 'issue', id: 'X-1', number: null, title: null, url: null, ref: null, state: null },
    ]);
  });

  it('accept 32 and refuse 33', async () => {
    const { world, a } = await withTasks(1);
    const list = (n: number) => Array.from({ length: n }, (_, i) => ({ provider: 'github', kind: 'check_run', number: i }));
    const before = eventTexts(world.db).length;
    await expect(world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: list(33) }))).rejects.toThrow(/workflow_artifacts/);
    expect(eventTexts(world.db).length).toBe(before);
    await world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: list(32) }));
    expect((await getTask(world.q, ROOM, 1)).workflow_artifacts).toHaveLength(32);
  });

  it('refuse unknown keys, unknown providers or kinds, and fractional numbers, changing nothing', async () => {
    const { world, a } = await withTasks(1);
    const bad = [
      [{ ...pr, color: 'red' }], [{ ...pr, provider: 'gitea' }], [{ ...pr, kind: 'commit' }], [{ ...pr, number: 1.5 }],
      [{ kind: 'issue' }], 'not a list',
    ];
    for (const workflowArtifacts of bad) {
      const error = await expectRefusedInput(world, () => world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts })));
      expect(error).toMatch(/^Invalid workflow_artifacts/);
    }
  });
});

const UNSAFE_URLS = [
  'javascript:alert(document.cookie)', 'JavaScript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>',
  'http://evil.example/pr/1', 'http://127.0.0.1.evil.example/', 'ftp://example.com/x', 'https://user:pw@github.com/o/r/pull/1',
  'vscode://open?x', 'not a url', '//github.com/o/r',
];
const SAFE_URLS = ['https://github.com/o/r/pull/1', 'http://127.0.0.1:3000/preview', 'http://localhost:8080/', 'HTTPS://GitLab.example/x'];

describe('links agents attach (issue 15 item 9)', () => {
  it('refuse any artifact url but https: or http on this machine, with a clear error, storing nothing', async () => {
    const { world, a } = await withTasks(1);
    for (const url of UNSAFE_URLS) {
      const error = await expectRefusedInput(world, () => world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: [{ ...pr, url }] })));
      expect(error, url).toBe('Invalid workflow_artifacts.0.url: only https: links (or http://127.0.0.1 and http://localhost) are accepted');
      const published = await expectRefusedInput(world, () => world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: { ...pr, url } })));
      expect(published, url).toBe('Invalid artifact.url: only https: links (or http://127.0.0.1 and http://localhost) are accepted');
      const prError = await expectRefusedInput(world, () => world.write((tx) => updateTask(tx, ROOM, 1, a, { prUrl: url })));
      expect(prError, url).toBe('Invalid pr_url: only https: links (or http://127.0.0.1 and http://localhost) are accepted');
    }
    expect((await listRoomArtifacts(world.q, ROOM)).artifacts).toEqual([]);
  });

  it('accept https: and http://127.0.0.1 / http://localhost links', async () => {
    const { world, a } = await withTasks(1);
    await world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: SAFE_URLS.map((url, number) => ({ ...pr, number, url })), prUrl: SAFE_URLS[1] }));
    expect((await getTask(world.q, ROOM, 1)).workflow_artifacts.map((x) => x.url)).toEqual(SAFE_URLS);
    expect((await getTask(world.q, ROOM, 1)).pr_url).toBe(SAFE_URLS[1]);
    await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: { ...pr, url: SAFE_URLS[2] } }));
    expect((await listRoomArtifacts(world.q, ROOM)).artifacts).toHaveLength(1);
  });
});

async function expectRefusedInput(world: Awaited<ReturnType<typeof withTasks>>['world'], run: () => Promise<unknown>): Promise<string> {
  const before = JSON.stringify(world.db.prepare('SELECT * FROM tasks').all());
  const error = (await run().then(() => null, (e: Error & { code: string }) => e))!;
  expect(error.code).toBe('invalid_input');
  expect(JSON.stringify(world.db.prepare('SELECT * FROM tasks').all())).toBe(before);
  return error.message;
}

describe('publishing room artifacts', () => {
  it('creates artifact_N with every key, the linked tasks and the publisher', async () => {
    const { world, a } = await withTasks();
    const result = await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr, taskId: 'task_1', linkedTaskIds: ['task_2', 'task_1'] }));
    expect(result).toEqual({
      room_id: ROOM, created: true,
      artifact: {
        artifact_id: 'artifact_1',
        artifact: { provider: 'github', kind: 'pull_request', id: null, number: 12, title: 'Fix login', url: pr.url, ref: null, state: null },
        task_ids: ['task_1', 'task_2'], published_by: a.label, created_at: expect.any(String), updated_at: expect.any(String),
      },
    });
    expect(eventTexts(world.db).at(-1)).toBe('Juniper published artifact_1 (github pull_request): Fix login');
  });

  it('republishing the same identity updates title, state and ref and adds task links', async () => {
    const { world, a } = await withTasks();
    await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr, taskId: 'task_1' }));
    const again = await world.write((tx) => publishRoomArtifact(tx, ROOM, world.person, {
      artifact: { provider: 'github', kind: 'pull_request', url: pr.url, id: 'PR_kw', title: 'Fix login (v2)', state: 'merged', ref: 'fix-login' },
      taskId: 'task_2',
    }));
    expect(again.created).toBe(false);
    expect(again.artifact).toMatchObject({
      artifact_id: 'artifact_1', task_ids: ['task_1', 'task_2'], published_by: a.label,
      // id and number are identity-side fields: a republish leaves them alone.
      artifact: { id: null, number: 12, title: 'Fix login (v2)', state: 'merged', ref: 'fix-login' },
    });
    expect(eventTexts(world.db).at(-1)).toBe('Ada updated artifact_1 (github pull_request): Fix login (v2)');
    expect((await listRoomArtifacts(world.q, ROOM)).artifacts).toHaveLength(1);
  });

  it('identifies by provider + kind + the first present of url, id, number, ref', async () => {
    const { world, a } = await withTasks();
    const publish = (artifact: object) => world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact }));
    expect((await publish({ provider: 'github', kind: 'issue', id: 'I_1', number: 4 })).created).toBe(true);
    expect((await publish({ provider: 'github', kind: 'issue', id: 'I_1', number: 5 })).created).toBe(false);
    expect((await publish({ provider: 'github', kind: 'issue', number: 4 })).created).toBe(true);
    expect((await publish({ provider: 'gitlab', kind: 'issue', number: 4 })).created).toBe(true);
    expect((await publish({ provider: 'github', kind: 'branch', ref: 'main' })).created).toBe(true);
    expect((await publish({ provider: 'github', kind: 'branch', ref: 'main', title: 'x' })).created).toBe(false);
  });

  it('needs one of url, id, number or ref (T18), and changes nothing without', async () => {
    const { world, a } = await withTasks();
    for (const artifact of [{ provider: 'github', kind: 'review', title: 'LGTM' }, { provider: 'github', kind: 'review', url: null, id: ' ' }]) {
      await expectRefused(world, (tx) => publishRoomArtifact(tx, ROOM, a, { artifact }), 'T18',
        'An artifact needs at least one of url, id, number or ref.');
    }
  });

  it('an unknown or malformed task is T3, and nothing is stored or numbered', async () => {
    const { world, a } = await withTasks();
    for (const input of [{ taskId: 'task_9' }, { linkedTaskIds: ['task_1', 'task_x'] }]) {
      await expectRefused(world, (tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr, ...input }), 'T3', 'Task not found.');
    }
    const first = await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr }));
    expect(first.artifact.artifact_id).toBe('artifact_1');
  });

  it('refuses more than 32 linked tasks and a schema violation', async () => {
    const { world, a } = await withTasks();
    await expectRefused(world, (tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr, linkedTaskIds: Array(33).fill('task_1') }),
      'invalid_input', 'linked_task_ids must not list more than 32 tasks.');
    const error = await expectRefusedInput(world, () => world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: { ...pr, extra: 1 } })));
    expect(error).toMatch(/^Invalid artifact/);
  });

  it('posts nothing when a republish changes nothing', async () => {
    const { world, a } = await withTasks();
    await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr, taskId: 'task_1' }));
    const before = eventTexts(world.db).length;
    await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: pr, taskId: 'task_1' }));
    expect(eventTexts(world.db).length).toBe(before);
  });
});

describe('listing room artifacts', () => {
  it('lists newest first, filters by task and honours the limit', async () => {
    const { world, a } = await withTasks();
    for (let n = 1; n <= 3; n++) {
      await world.write((tx) => publishRoomArtifact(tx, ROOM, a, { artifact: { provider: 'github', kind: 'issue', number: n }, taskId: n === 2 ? 'task_2' : 'task_1' }));
    }
    const ids = (r: { artifacts: { artifact_id: string }[] }) => r.artifacts.map((x) => x.artifact_id);
    expect(ids(await listRoomArtifacts(world.q, ROOM))).toEqual(['artifact_3', 'artifact_2', 'artifact_1']);
    expect(ids(await listRoomArtifacts(world.q, ROOM, { taskId: 'task_1' }))).toEqual(['artifact_3', 'artifact_1']);
    expect(ids(await listRoomArtifacts(world.q, ROOM, { limit: 1 }))).toEqual(['artifact_3']);
    expect(await listRoomArtifacts(world.q, OTHER_ROOM)).toEqual({ room_id: OTHER_ROOM, artifacts: [] });
  });

  it('refuses a limit outside 1–250 and an unknown task', async () => {
    const { world } = await withTasks();
    for (const limit of [0, 251, 1.5]) {
      await expect(listRoomArtifacts(world.q, ROOM, { limit })).rejects.toThrow('limit must be an integer from 1 to 250.');
    }
    expect((await listRoomArtifacts(world.q, ROOM, { limit: 250 })).artifacts).toEqual([]);
    await expect(listRoomArtifacts(world.q, ROOM, { taskId: 'task_9' })).rejects.toThrow('Task not found.');
  });
});
