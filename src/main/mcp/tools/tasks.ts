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
import { workflowArtifactListSchema } from '../../domain/tasks/workflowArtifacts';
import { agentIdentity } from '../agentIdentity';
import { prStatusOf, repoVisibilityOf } from '../../auth/githubFacts';
import { readAs, writeAs } from '../acting';
import { additive, changing, defineTool, readOnly, sessionFacade } from '../toolKit';

const taskId = z.string().describe('Task id, e.g. task_7.');
const reason = z.string().max(2000).optional().describe('Why (shown to people; optional).');
const leaseId = z.string().optional().describe('The active lease id, to make sure you release the lease you think you hold.');

export const addTaskTool = defineTool({
  name: 'add_task',
  description: 'Propose a task on the room\'s board. It starts as proposed until someone else (a person or another agent) accepts it.',
  input: {
    title: z.string().max(500).describe('Task title (1–500 characters).'),
    description: z.string().max(20_000).optional().describe('Details, Markdown (≤ 20 000 characters).'),
    source_message_id: z.string().optional().describe('msg_N in this room the task came from.'),
    created_by: z.string().optional().describe('Accepted for compatibility and ignored.'),
    ...sessionFacade,
  },
  annotations: additive,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) =>
      addTask(tx, id.roomId, id.actor!, { title: args.title, description: args.description ?? null, sourceMessageId: args.source_message_id ?? null }),
    );
    return { success: true, task: value, agent_identity: agentIdentity(env, identity.session) };
  },
});

export const getBoardTool = defineTool({
  name: 'get_board',
  description: 'The room\'s task board in number order. open_only (default true) drops done and cancelled tasks. pr_status is the last known state of each task\'s pull request on GitHub; repo_visibility that of a GitHub repo room\'s repository.',
  input: {
    status: z.enum(TASK_STATUSES).optional().describe('Only tasks in this status (open_only is then ignored).'),
    open_only: z.boolean().optional().describe('Drop done and cancelled tasks (default true; merged stays).'),
    ...sessionFacade,
  },
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, (identity) => ({
      success: true,
      tasks: getBoard(env.services.store.db, identity.roomId, { status: args.status ?? null, openOnly: args.open_only ?? true }).map((task) => ({
        ...task,
        pr_status: prStatusOf(env.services.githubData, task.pr_url),
      })),
      artifact_detail_instruction: ARTIFACT_DETAIL_INSTRUCTION,
      repo_visibility: repoVisibilityOf(env.services.githubData, identity.roomId),
    })),
});

export const claimTaskTool = defineTool({
  name: 'claim_task',
  description: 'Claim an accepted task: you become its assignee with a work lease (accepted → assigned).',
  input: { task_id: taskId, assignee: z.string().optional().describe('Accepted for compatibility and ignored.'), ...sessionFacade },
  annotations: additive,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) => claimTask(tx, id.roomId, parseTaskId(args.task_id), id.actor!));
    return { success: true, ...value, agent_identity: agentIdentity(env, identity.session) };
  },
});

export const updateTaskTool = defineTool({
  name: 'update_task',
  description: 'Move a task you hold to another status, or set its PR link or workflow artifacts. Ownership changes go through claim_task and handoff_task_lease.',
  input: {
    task_id: taskId,
    status: z.enum(TASK_STATUSES).optional().describe('New status; must be allowed from the current one.'),
    assignee: z.string().optional().describe('Only "assigned" to yourself is allowed here (acts as claim_task).'),
    pr_url: z.string().max(2048).optional().describe('Pull request URL.'),
    workflow_artifacts: workflowArtifactListSchema.optional().describe('Replaces the task\'s workflow artifacts (≤ 32).'),
    ...sessionFacade,
  },
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
    return { success: true, ...value, agent_identity: agentIdentity(env, identity.session) };
  },
});

export const completeTaskTool = defineTool({
  name: 'complete_task',
  description: 'Hand in a task you hold for review (→ in_review), optionally with its PR link.',
  input: { task_id: taskId, pr_url: z.string().max(2048).optional().describe('Pull request URL.'), ...sessionFacade },
  annotations: changing,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) =>
      completeTask(tx, id.roomId, parseTaskId(args.task_id), id.actor!, { prUrl: args.pr_url ?? null }),
    );
    return { success: true, ...value, agent_identity: agentIdentity(env, identity.session) };
  },
});

export const claimTaskReviewTool = defineTool({
  name: 'claim_task_review',
  description: 'Take review authority for a task (not one you hold). A repeat returns your existing review lease.',
  input: { task_id: taskId, reason, ...sessionFacade },
  annotations: additive,
  async run(args, env) {
    const { value, identity } = await writeAs(env, args, (tx, id) => claimReview(tx, id.roomId, parseTaskId(args.task_id), id.actor!));
    return { success: true, action: 'claim', ...value, agent_identity: agentIdentity(env, identity.session) };
  },
});

export const releaseTaskReviewTool = defineTool({
  name: 'release_task_review',
  description: 'Give up the review authority you hold for a task.',
  input: { task_id: taskId, lease_id: leaseId, reason, ...sessionFacade },
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
  description: 'Give back a task you hold: it returns to accepted with no assignee (in merged, only the lease ends).',
  input: { task_id: taskId, lease_id: leaseId, reason, ...sessionFacade },
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
  description: 'Hand a task you hold (or an unheld accepted task) to another live agent in the room, by its agent key.',
  input: {
    task_id: taskId,
    target_agent_key: z.string().min(1).describe('Agent key of the receiving agent (as shown on messages and the board).'),
    target_agent_session_id: z.string().optional().describe('The receiving session, when that agent has several in this room.'),
    target_actor_instance_id: z.string().optional().describe('Accepted for compatibility and ignored.'),
    lease_id: leaseId,
    reason,
    ...sessionFacade,
  },
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
