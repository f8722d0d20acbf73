// Builds tasks in any status through the real domain functions, for tests that start
// from "a task in review held by Juniper" and the like.
import type { AgentActor, Actor } from '../../../../src/main/domain/actor';
import { addTask, claimTask, completeTask, moveTaskAsPerson, updateTask, type TaskStatus } from '../../../../src/main/domain/tasks';
import { ROOM, type World } from './world';

let made = 0;

export interface Built {
  number: number;
  creator: Actor;
  holder: AgentActor;
}

/**
 * A task in `status`, created by `creator` (default: a fresh agent "Maple"), held (for
 * held statuses and merged) by `holder` (default: a fresh agent "Juniper").
 */
export async function taskIn(
  world: World, status: TaskStatus, options: { creator?: Actor; holder?: AgentActor; title?: string } = {},
): Promise<Built> {
  const creator = options.creator ?? world.agent(`Maple${++made}`);
  const holder = options.holder ?? world.agent(`Juniper${++made}`);
  const p = world.person;
  const n = Number(
    (await world.write((tx) => addTask(tx, ROOM, creator, { title: options.title ?? `Task in ${status}`, propose: true }))).id.slice(5),
  );
  const step = (fn: Parameters<World['write']>[0]) => world.write(fn);
  if (status === 'proposed') return { number: n, creator, holder };
  await step((tx) => moveTaskAsPerson(tx, ROOM, n, p, 'accepted'));
  if (status === 'cancelled') await step((tx) => moveTaskAsPerson(tx, ROOM, n, p, 'cancelled'));
  if (status === 'accepted' || status === 'cancelled') return { number: n, creator, holder };
  await step((tx) => claimTask(tx, ROOM, n, holder));
  if (status === 'assigned') return { number: n, creator, holder };
  await step((tx) => updateTask(tx, ROOM, n, holder, { status: 'in_progress' }));
  if (status === 'blocked') await step((tx) => updateTask(tx, ROOM, n, holder, { status: 'blocked' }));
  if (status === 'done') await step((tx) => updateTask(tx, ROOM, n, holder, { status: 'done' }));
  if (status === 'in_review' || status === 'merged') await step((tx) => completeTask(tx, ROOM, n, holder));
  if (status === 'merged') await step((tx) => updateTask(tx, ROOM, n, holder, { status: 'merged' }));
  return { number: n, creator, holder };
}
