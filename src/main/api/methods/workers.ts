// workers.*: the Agents roster (one room, or every room of every place) and what a person
// does to an agent — rename it, disconnect it (it may reconnect), or remove it from the room
// (its tasks there go back to accepted) — and why it was woken. A session is named by its id
// and its room's place ('local' when omitted).
import { appErrors } from '../../domain/errors';
import { cleanDisplayName } from '../../domain/identity/names';
import { unmentionableName } from '../../domain/messages/mentions';
import { requireRoom } from '../../domain/rooms/rooms';
import { getManagedMember } from '../../store/managedAgentQueries';
import { renameSession } from '../../domain/sessions/sessions';
import type { ApiContext } from '../context';
import { wakesOf } from '../models/wakes';
import { agentSession, agentSessions, allAgentSessions, requireAgentSession } from '../models/workers';
import type { Methods } from './types';

type WorkerMethods = Methods<'workers.list' | 'workers.rename' | 'workers.disconnect' | 'workers.remove' | 'workers.wakes'>;

export function workerMethods(ctx: ApiContext): WorkerMethods {
  const { app } = ctx;
  // The hub unbinds the session before the write, so a wait in flight fails with W14 at once.
  const end = async (input: { sessionId: string; place?: string }, mode: 'disconnect' | 'remove') => {
    const place = await ctx.place(input.place);
    await ctx.read((q) => requireAgentSession(q, input.sessionId), place);
    await app.hub.endSessionByPerson(place, input.sessionId, mode, await ctx.person(place));
    return ctx.read((q) => agentSession(app, q, place, input.sessionId), place);
  };
  return {
    'workers.list': async ({ roomId, place: asked }) => {
      if (roomId !== undefined) {
        const place = await ctx.place(asked);
        return ctx.read(async (q) => {
          await requireRoom(q, roomId);
          return agentSessions(app, q, place, roomId);
        }, place);
      }
      return allAgentSessions(app);
    },

    'workers.rename': async ({ sessionId, place: asked, name }) => {
      const place = await ctx.place(asked);
      const person = await ctx.person(place);
      await ctx.write(async (tx) => {
        const session = await requireAgentSession(tx, sessionId);
        // A managed agent takes turns when mentioned: its new name must be one a mention reaches.
        const cleaned = cleanDisplayName(name);
        const unmentionable = cleaned !== null && session.worker_id !== null && (await getManagedMember(tx, session.worker_id, session.room_id)) ? unmentionableName(cleaned) : null;
        if (unmentionable) throw appErrors.invalidInput(unmentionable);
        return renameSession(tx, sessionId, name, person);
      }, place);
      return ctx.read((q) => agentSession(app, q, place, sessionId), place);
    },

    'workers.disconnect': (input) => end(input, 'disconnect'),
    'workers.remove': (input) => end(input, 'remove'),

    'workers.wakes': async ({ sessionId, place: asked }) => {
      const place = await ctx.place(asked);
      return ctx.read(async (q) => {
        await requireAgentSession(q, sessionId);
        return wakesOf(app, q, place, sessionId);
      }, place);
    },
  };
}
