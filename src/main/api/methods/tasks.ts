// tasks.*: the board and the task drawer, and what a person does to tasks — create, move
// along the transition table, accept or cancel a proposal, reassign, force-release leases.
import {
  acceptTaskAsPerson, addTask, cancelTaskAsPerson, forceReleaseReview, forceReleaseWorkLease, getBoard, moveTaskAsPerson,
  parseTaskId, reassignTaskAsPerson,
} from '../../domain/tasks';
import { requireRoom, resolveWritableRoom } from '../../domain/rooms/rooms';
import { repoVisibilityOf } from '../../auth/githubFacts';
import type { Tx } from '../../store/store';
import { getTaskRow } from '../../store/taskQueries';
import type { ApiContext } from '../context';
import { taskCard, taskDetail, toTaskCard } from '../models/tasks';
import type { Methods } from './types';

type TaskMethods = Methods<
  'tasks.board' | 'tasks.get' | 'tasks.create' | 'tasks.move' | 'tasks.accept' | 'tasks.cancel' | 'tasks.handoff' | 'tasks.releaseWork' | 'tasks.releaseReview'
>;

export function taskMethods(ctx: ApiContext): TaskMethods {
  const { app } = ctx;
  /** A person's change to one task in a room that accepts writes (R3, R4), answered with its card. */
  const change = async (roomId: string, number: number, fn: (tx: Tx) => unknown) => {
    await ctx.write((tx) => {
      resolveWritableRoom(tx.db, roomId);
      return fn(tx);
    });
    return taskCard(app, ctx.db, roomId, number);
  };
  return {
    'tasks.board': ({ roomId }) => {
      requireRoom(ctx.db, roomId);
      const tasks = getBoard(ctx.db, roomId, { openOnly: false }).map((task) =>
        toTaskCard(app, task, getTaskRow(ctx.db, roomId, parseTaskId(task.id))!),
      );
      return { roomId, tasks, repoVisibility: repoVisibilityOf(app.githubData, roomId) };
    },

    'tasks.get': ({ roomId, number }) => {
      requireRoom(ctx.db, roomId);
      return taskDetail(app, ctx.db, roomId, number);
    },

    'tasks.create': async ({ roomId, title, description, propose }) => {
      const task = await ctx.write((tx) => {
        resolveWritableRoom(tx.db, roomId);
        return addTask(tx, roomId, ctx.person(), { title, description: description ?? null, propose: propose ?? false });
      });
      return taskCard(app, ctx.db, roomId, parseTaskId(task.id));
    },

    'tasks.move': ({ roomId, number, to }) => change(roomId, number, (tx) => moveTaskAsPerson(tx, roomId, number, ctx.person(), to)),
    'tasks.accept': ({ roomId, number }) => change(roomId, number, (tx) => acceptTaskAsPerson(tx, roomId, number, ctx.person())),
    'tasks.cancel': ({ roomId, number }) => change(roomId, number, (tx) => cancelTaskAsPerson(tx, roomId, number, ctx.person())),
    'tasks.handoff': ({ roomId, number, toAgentKey }) =>
      change(roomId, number, (tx) => reassignTaskAsPerson(tx, roomId, number, ctx.person(), { agentKey: toAgentKey })),
    'tasks.releaseWork': ({ roomId, number }) => change(roomId, number, (tx) => forceReleaseWorkLease(tx, roomId, number, ctx.person())),
    'tasks.releaseReview': ({ roomId, number }) => change(roomId, number, (tx) => forceReleaseReview(tx, roomId, number, ctx.person())),
  };
}
