// tasks.*: the board and the task drawer, and what a person does to tasks — create, move
// along the transition table, accept or cancel a proposal, reassign, force-release leases.
import {
  acceptTaskAsPerson, addTask, cancelTaskAsPerson, forceReleaseReview, forceReleaseWorkLease, getBoard, moveTaskAsPerson,
  parseTaskId, reassignTaskAsPerson,
} from '../../domain/tasks';
import { requireRoom, resolveWritableRoom } from '../../domain/rooms/rooms';
import { repoVisibilityOf } from '../../auth/githubFacts';
import type { PersonActor } from '../../domain/actor';
import type { Tx } from '../../store/port';
import { listTaskRows } from '../../store/taskQueries';
import type { ApiContext } from '../context';
import { taskCard, taskDetail, toTaskCard } from '../models/tasks';
import type { Methods } from './types';

type TaskMethods = Methods<
  'tasks.board' | 'tasks.get' | 'tasks.create' | 'tasks.move' | 'tasks.accept' | 'tasks.cancel' | 'tasks.handoff' | 'tasks.releaseWork' | 'tasks.releaseReview'
>;

export function taskMethods(ctx: ApiContext): TaskMethods {
  const { app } = ctx;
  /** A person's change to one task in a room that accepts writes (R3, R4), answered with its card. */
  const change = async (roomId: string, number: number, fn: (tx: Tx, person: PersonActor) => Promise<unknown>) => {
    const person = await ctx.person();
    await ctx.write(async (tx) => {
      await resolveWritableRoom(tx, roomId);
      return fn(tx, person);
    });
    return ctx.read((q) => taskCard(app, q, roomId, number));
  };
  return {
    'tasks.board': ({ roomId }) =>
      ctx.read(async (q) => {
        await requireRoom(q, roomId);
        const board = await getBoard(q, roomId, { openOnly: false });
        const rows = new Map((await listTaskRows(q, roomId, { openOnly: false })).map((row) => [row.number, row]));
        // A task created between the two reads is left for the next refresh.
        const tasks = board.flatMap((task) => {
          const row = rows.get(parseTaskId(task.id));
          return row ? [toTaskCard(app, task, row)] : [];
        });
        return { roomId, tasks, repoVisibility: repoVisibilityOf(app.githubData, roomId) };
      }),

    'tasks.get': ({ roomId, number }) =>
      ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return taskDetail(app, q, roomId, number);
      }),

    'tasks.create': async ({ roomId, title, description, propose }) => {
      const person = await ctx.person();
      const task = await ctx.write(async (tx) => {
        await resolveWritableRoom(tx, roomId);
        return addTask(tx, roomId, person, { title, description: description ?? null, propose: propose ?? false });
      });
      return ctx.read((q) => taskCard(app, q, roomId, parseTaskId(task.id)));
    },

    'tasks.move': ({ roomId, number, to }) => change(roomId, number, (tx, person) => moveTaskAsPerson(tx, roomId, number, person, to)),
    'tasks.accept': ({ roomId, number }) => change(roomId, number, (tx, person) => acceptTaskAsPerson(tx, roomId, number, person)),
    'tasks.cancel': ({ roomId, number }) => change(roomId, number, (tx, person) => cancelTaskAsPerson(tx, roomId, number, person)),
    'tasks.handoff': ({ roomId, number, toAgentKey }) =>
      change(roomId, number, (tx, person) => reassignTaskAsPerson(tx, roomId, number, person, { agentKey: toAgentKey })),
    'tasks.releaseWork': ({ roomId, number }) => change(roomId, number, (tx, person) => forceReleaseWorkLease(tx, roomId, number, person)),
    'tasks.releaseReview': ({ roomId, number }) => change(roomId, number, (tx, person) => forceReleaseReview(tx, roomId, number, person)),
  };
}
