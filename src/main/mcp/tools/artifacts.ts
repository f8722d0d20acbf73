// Room artifact tools (mcp-tools.md §6): PRs, issues, branches and checks the room
// produced, linked to its tasks.
import { z } from 'zod';
import { listRoomArtifacts, publishRoomArtifact } from '../../domain/tasks/roomArtifacts';
import { readAs, writeAs } from '../acting';
import { objectResult } from '../outputSchemas';
import { defineTool, idempotentChange, readOnly, sessionFacade } from '../toolKit';
import { artifactInput } from './artifactInput';

export const getRoomArtifactsTool = defineTool({
  name: 'get_room_artifacts',
  title: 'Room artifacts',
  description: 'The room\'s PRs, issues, branches, reviews and checks, newest first.',
  input: {
    task_id: z.string().optional().describe('Only those linked to this task.'),
    limit: z.number().int().min(1).max(250).default(100),
    ...sessionFacade,
  },
  output: objectResult,
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => ({
      success: true,
      ...(await listRoomArtifacts(q, identity.roomId, { taskId: args.task_id ?? null, limit: args.limit })),
    })),
});

export const publishRoomArtifactTool = defineTool({
  name: 'publish_room_artifact',
  title: 'Publish artifact',
  description: 'Publish a room artifact (e.g. a PR) and link it to tasks; the same provider, kind and url/id/number/ref updates it.',
  input: {
    artifact: artifactInput.describe('Needs url, id, number or ref.'),
    task_id: z.string().optional(),
    linked_task_ids: z.array(z.string()).max(32).optional(),
    ...sessionFacade,
  },
  output: objectResult,
  annotations: idempotentChange,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, id) =>
      publishRoomArtifact(tx, id.roomId, id.actor!, { artifact: args.artifact, taskId: args.task_id ?? null, linkedTaskIds: args.linked_task_ids ?? [] }),
    );
    return { success: true, ...value };
  },
});
