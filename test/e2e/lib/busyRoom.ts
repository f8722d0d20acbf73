// A room with the content people really see, for the accessibility flows: three agents on
// real helper connections talking in Markdown and code, a thread with a reply, a status
// line, proposed tasks, a remembered fact and an open "Needs you" request.
import { joinAgent, type Agent } from './agents';

export const BUSY_ROOM = 'release-train';

export interface BusyRoom {
  readonly atlas: Agent;
  readonly birch: Agent;
  readonly cedar: Agent;
  /** The message Birch asked in a thread (Atlas replied once). */
  readonly threadQuestion: string;
  /** Tasks Atlas proposed, in order (`task_1`, …). */
  readonly taskIds: string[];
  readonly requestTitle: string;
  close(): Promise<void>;
}

export async function seedBusyRoom(dataDir: string, options: { tasks?: number } = {}): Promise<BusyRoom> {
  const atlas = await joinAgent(dataDir, { room: BUSY_ROOM, name: 'Atlas' });
  const birch = await joinAgent(dataDir, { room: BUSY_ROOM, name: 'Birch', clientName: 'codex' });
  const cedar = await joinAgent(dataDir, { room: BUSY_ROOM, name: 'Cedar', clientName: 'cursor' });
  await atlas.call('send_message', { text: 'Morning! I am cutting the **release branch** today; see the [release checklist](https://example.com/release).' });
  const threadQuestion = 'Should the changelog list the beta flags?';
  const question = await birch.call('send_message', { text: `${threadQuestion}\n\n\`\`\`ts\nconst flags = ['fast-sync', 'new-board'];\n\`\`\`` });
  await atlas.call('send_thread_message', { thread_parent_id: question.id, text: 'Yes: each flag with its default and who owns it.' });
  await cedar.call('post_status', { status: 'working on the migration dry run' });
  await birch.call('send_message', { text: '- lint is green\n- 2 flaky tests quarantined\n- see task_1 for the notes' });
  const titles = ['Write the release notes', 'Quarantine the flaky sync test', 'Bump the schema version', 'Record the demo video'];
  const taskIds: string[] = [];
  for (const title of titles.slice(0, options.tasks ?? titles.length)) taskIds.push((await atlas.call('add_task', { title, description: `${title}, then link the PR.` })).task.id);
  await atlas.call('remember_room_fact', { client_id: 'a11y-fact-freeze', category: 'constraint', title: 'Code freeze on Thursday', body: 'Only fixes for release blockers land after Thursday noon.' });
  const requestTitle = 'Which night can the database move?';
  await cedar.call('request_human_input', {
    client_id: 'a11y-ask-db-window',
    category: 'decision',
    title: requestTitle,
    body: 'The move takes **two hours** of read-only time.',
    recommendation: 'Tuesday night',
    unblocks: 'task_3 (bump the schema version)',
  });
  return {
    atlas,
    birch,
    cedar,
    threadQuestion,
    taskIds,
    requestTitle,
    async close() {
      await Promise.all([atlas, birch, cedar].map((agent) => agent.close()));
    },
  };
}
