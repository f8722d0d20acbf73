// Task tools (mcp-tools.md §6): thin adapters over src/main/domain/tasks. Each write
// runs fenced as the resolved identity; the domain posts the one system event and
// updates presence in the same transaction.
import { z } from 'zod';
import { getBoard, ARTIFACT_DETAIL_INSTRUCTION } from '../../domain/tasks/board';
import { claimTask } from '../../domain/tasks/claim';
import { addTask } from '../../domain/tasks/createTask';
import { claimReview, releaseReview } from '../../domain/tasks/reviewLease';
import { parseTaskId } from '../../domain/tasks/taskEffects';
import { TASK_STATUSES } from '../../domain/tasks/transitions';
import { completeTask, updateTask } from '../../domain/tasks/updateTask';
import { handoffTask, releaseWorkLease } from '../../domain/tasks/workLease';
import { agentIdentity } from '../agentIdentity';
import { prStatusOf, repoVisibilityOf } from '../../auth/githubFacts';
import { readAs, writeAs } from '../acting';
import { objectResult } from '../outputSchemas';
import { additive, changing, defineTool, ignored, idempotentChange, idempotentWrite, readOnly, sessionFacade, taskCompatFields } from '../toolKit';
import { artifactListInput } from './artifactInput';

const taskId = z.string();
const reason = z.string().max(2000).optional();
const leaseId = z.string().optional();
const prUrl = z.string().max(2048).optional();
/** Every task write: the session facade and the upstream fields it ignores. */
const writeFacade = { ...taskCompatFields, ...sessionFacade };

export const addTaskTool = defineTool({
  name: 'add_task',
  title: 'Add task',
  description: 'Propose a task; someone else accepts it.',
  input: {
    title: z.string().max(500),
    description: z.string().max(20_000).optional().describe('Markdown.'),
    source_message_id: z.string().optional().describe('msg_N it came from.'),
    created_by: ignored(),
    ...writeFacade,
  },
  output: objectResult,
  annotations: additive,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) =>
      addTask(tx, id.roomId, id.actor!, { title: args.title, description: args.description ?? null, sourceMessageId: args.source_message_id ?? null }),
    );
    return { success: true, task: value, agent_identity: await agentIdentity(env, identity.session) };
  },
});

export const getBoardTool = defineTool({
  name: 'get_board',
  title: 'Task board',
  description: 'The room\'s tasks by number, each PR\'s last known GitHub state in pr_status.',
  input: {
    status: z.enum(TASK_STATUSES).optional(),
    open_only: z.boolean().default(true).describe('Without done and cancelled.'),
    ...sessionFacade,
  },
  output: objectResult,
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => ({
      success: true,
      tasks: (await getBoard(q, identity.roomId, { status: args.status ?? null, openOnly: args.open_only })).map((task) => ({
        ...task,
        pr_status: prStatusOf(env.services.githubData, task.pr_url),
      })),
      artifact_detail_instruction: ARTIFACT_DETAIL_INSTRUCTION,
      repo_visibility: repoVisibilityOf(env.services.githubData, identity.roomId),
    })),
});

export const claimTaskTool = defineTool({
  name: 'claim_task',
  title: 'Claim task',
  description: 'Take an accepted task: you become assignee with a work lease.',
  input: { task_id: taskId, assignee: ignored(), ...writeFacade },
  output: objectResult,
  annotations: idempotentChange,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) => claimTask(tx, id.roomId, parseTaskId(args.task_id), id.actor!));
    return { success: true, ...value, agent_identity: await agentIdentity(env, identity.session) };
  },
});

export const updateTaskTool = defineTool({
  name: 'update_task',
  title: 'Update task',
  description: 'Change a task you hold.',
  input: {
    task_id: taskId,
    status: z.enum(TASK_STATUSES).optional(),
    assignee: z.string().optional().describe('Only yourself (acts as claim_task).'),
    pr_url: prUrl,
    workflow_artifacts: artifactListInput,
    ...writeFacade,
  },
  output: objectResult,
  annotations: changing,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) =>
      updateTask(tx, id.roomId, parseTaskId(args.task_id), id.actor!, {
        status: args.status ?? null,
        assignee: args.assignee,
        prUrl: args.pr_url,
        workflowArtifacts: args.workflow_artifacts,
      }),
    );
    return { success: true, ...value, agent_identity: await agentIdentity(env, identity.session) };
  },
});

export const completeTaskTool = defineTool({
  name: 'complete_task',
  title: 'Complete task',
  description: 'Hand in a task you hold for review (in_review).',
  input: { task_id: taskId, pr_url: prUrl, ...writeFacade },
  output: objectResult,
  annotations: changing,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) =>
      completeTask(tx, id.roomId, parseTaskId(args.task_id), id.actor!, { prUrl: args.pr_url ?? null }),
    );
    return { success: true, ...value, agent_identity: await agentIdentity(env, identity.session) };
  },
});

export const claimTaskReviewTool = defineTool({
  name: 'claim_task_review',
  title: 'Claim review',
  description: 'Take review authority for a task you do not hold.',
  input: { task_id: taskId, reason, ...writeFacade },
  output: objectResult,
  annotations: idempotentWrite,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) => claimReview(tx, id.roomId, parseTaskId(args.task_id), id.actor!));
    return { success: true, action: 'claim', ...value, agent_identity: await agentIdentity(env, identity.session) };
  },
});

export const releaseTaskReviewTool = defineTool({
  name: 'release_task_review',
  title: 'Release review',
  description: 'Give up your review authority for a task.',
  input: { task_id: taskId, lease_id: leaseId, reason, ...writeFacade },
  output: objectResult,
  annotations: changing,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, id) =>
      releaseReview(tx, id.roomId, parseTaskId(args.task_id), id.actor!, { leaseId: args.lease_id ?? null }),
    );
    return { success: true, action: 'release', ...value };
  },
});

export const releaseTaskLeaseTool = defineTool({
  name: 'release_task_lease',
  title: 'Release task',
  description: 'Give back a task you hold: it returns to accepted, unassigned (merged: only the lease ends).',
  input: { task_id: taskId, lease_id: leaseId, reason, ...writeFacade },
  output: objectResult,
  annotations: changing,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, id) =>
      releaseWorkLease(tx, id.roomId, parseTaskId(args.task_id), id.actor!, { leaseId: args.lease_id ?? null }),
    );
    return { success: true, action: 'release', ...value };
  },
});

export const handoffTaskLeaseTool = defineTool({
  name: 'handoff_task_lease',
  title: 'Hand off task',
  description: 'Give a task you hold (or an unheld accepted one) to another live agent here.',
  input: {
    task_id: taskId,
    target_agent_key: z.string().min(1),
    target_agent_session_id: z.string().optional().describe('If it has several sessions here.'),
    target_actor_instance_id: ignored(),
    lease_id: leaseId,
    reason,
    ...writeFacade,
  },
  output: objectResult,
  annotations: changing,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, id) =>
      handoffTask(tx, id.roomId, parseTaskId(args.task_id), id.actor!, {
        targetAgentKey: args.target_agent_key,
        targetSessionId: args.target_agent_session_id ?? null,
        leaseId: args.lease_id ?? null,
      }),
    );
    return { success: true, action: 'handoff', ...value };
  },
});
