// Room artifact tools (mcp-tools.md §6): PRs, issues, branches and checks the room
// produced, linked to its tasks.
import { z } from 'zod';
import { listRoomArtifacts, publishRoomArtifact } from '../../domain/tasks/roomArtifacts';
import { workflowArtifactSchema } from '../../domain/tasks/workflowArtifacts';
import { readAs, writeAs } from '../acting';
import { additive, defineTool, readOnly, sessionFacade } from '../toolKit';

export const getRoomArtifactsTool = defineTool({
  name: 'get_room_artifacts',
  description: 'The room\'s published artifacts (PRs, issues, branches, reviews, checks), newest first; with task_id only those linked to that task.',
  input: {
    task_id: z.string().optional().describe('Only artifacts linked to this task (task_N).'),
    limit: z.number().int().min(1).max(250).optional().describe('Maximum artifacts (1–250, default 100).'),
    ...sessionFacade,
  },
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, (identity) => ({
      success: true,
      ...listRoomArtifacts(env.services.store.db, identity.roomId, { taskId: args.task_id ?? null, limit: args.limit ?? 100 }),
    })),
});

export const publishRoomArtifactTool = defineTool({
  name: 'publish_room_artifact',
  description: 'Publish (or update) an artifact of the room, such as a pull request, and link it to tasks. Identity: provider + kind + the first of url, id, number, ref.',
  input: {
    artifact: workflowArtifactSchema.describe('The artifact: provider, kind, and at least one of url, id, number or ref.'),
    task_id: z.string().optional().describe('Task (task_N) to link it to.'),
    linked_task_ids: z.array(z.string()).max(32).optional().describe('More tasks to link it to (≤ 32).'),
    ...sessionFacade,
  },
  annotations: additive,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, id) =>
      publishRoomArtifact(tx, id.roomId, id.actor!, { artifact: args.artifact, taskId: args.task_id ?? null, linkedTaskIds: args.linked_task_ids ?? [] }),
    );
    return { success: true, ...value };
  },
});
