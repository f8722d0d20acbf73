// tasks.*: the board and the task drawer, and what a person does to tasks — create, move
// along the transition table, accept or cancel a proposal, reassign, force-release leases —
// in the room's place (decided by that place's database: on a team, across machines).
import {
  acceptTaskAsPerson, addTask, cancelTaskAsPerson, forceReleaseReview, forceReleaseWorkLease, getBoard, moveTaskAsPerson,
  parseTaskId, reassignTaskAsPerson,
} from '../../domain/tasks';
import { appErrors } from '../../domain/errors';
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
  const change = async (ref: { roomId: string; place?: string; number: number }, fn: (tx: Tx, person: PersonActor) => Promise<unknown>) => {
    const place = await ctx.place(ref.place);
    const person = await ctx.person(place);
    await ctx.write(async (tx) => {
      await resolveWritableRoom(tx, ref.roomId);
      return fn(tx, person);
    }, place);
    return ctx.read((q) => taskCard(app, q, place, ref.roomId, ref.number), place);
  };
  return {
    'tasks.board': async ({ roomId, place: asked }) => {
      const place = await ctx.place(asked);
      return ctx.read(async (q) => {
        await requireRoom(q, roomId);
        const board = await getBoard(q, roomId, { openOnly: false });
        const rows = new Map((await listTaskRows(q, roomId, { openOnly: false })).map((row) => [row.number, row]));
        // A task created between the two reads is left for the next refresh.
        const tasks = board.flatMap((task) => {
          const row = rows.get(parseTaskId(task.id));
          return row ? [toTaskCard(app, place, task, row)] : [];
        });
        return { roomId, tasks, repoVisibility: repoVisibilityOf(app.githubData, roomId) };
      }, place);
    },

    'tasks.get': async ({ roomId, place: asked, number }) => {
      const place = await ctx.place(asked);
      return ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return taskDetail(app, q, place, roomId, number);
      }, place);
    },

    'tasks.create': async ({ roomId, place: asked, title, description, propose, assignTo }) => {
      const place = await ctx.place(asked);
      const person = await ctx.person(place);
      if (propose && assignTo) throw appErrors.invalidInput('A proposed task waits for someone to accept it: assign it once it is accepted, or add it instead of proposing it.');
      // One write: a refused assignee (not in the room) adds no task either.
      const task = await ctx.write(async (tx) => {
        await resolveWritableRoom(tx, roomId);
        const added = await addTask(tx, roomId, person, { title, description: description ?? null, propose: propose ?? false });
        if (assignTo) await reassignTaskAsPerson(tx, roomId, parseTaskId(added.id), person, { agentKey: assignTo });
        return added;
      }, place);
      return ctx.read((q) => taskCard(app, q, place, roomId, parseTaskId(task.id)), place);
    },

    'tasks.move': (ref) => change(ref, (tx, person) => moveTaskAsPerson(tx, ref.roomId, ref.number, person, ref.to)),
    'tasks.accept': (ref) => change(ref, (tx, person) => acceptTaskAsPerson(tx, ref.roomId, ref.number, person)),
    'tasks.cancel': (ref) => change(ref, (tx, person) => cancelTaskAsPerson(tx, ref.roomId, ref.number, person)),
    'tasks.handoff': (ref) => change(ref, (tx, person) => reassignTaskAsPerson(tx, ref.roomId, ref.number, person, { agentKey: ref.toAgentKey })),
    'tasks.releaseWork': (ref) => change(ref, (tx, person) => forceReleaseWorkLease(tx, ref.roomId, ref.number, person)),
    'tasks.releaseReview': (ref) => change(ref, (tx, person) => forceReleaseReview(tx, ref.roomId, ref.number, person)),
  };
}
