// workers.*: the Agents roster and what a person does to an agent — rename it, disconnect
// it (it may reconnect), or remove it from the room (its tasks there go back to accepted) —
// and why it was woken.
import { requireRoom } from '../../domain/rooms/rooms';
import { renameSession } from '../../domain/sessions/sessions';
import type { ApiContext } from '../context';
import { wakesOf } from '../models/wakes';
import { agentSession, agentSessions, requireAgentSession } from '../models/workers';
import type { Methods } from './types';

type WorkerMethods = Methods<'workers.list' | 'workers.rename' | 'workers.disconnect' | 'workers.remove' | 'workers.wakes'>;

export function workerMethods(ctx: ApiContext): WorkerMethods {
  const { app } = ctx;
  // The hub unbinds the session before the write, so a wait in flight fails with W14 at once.
  const end = async (sessionId: string, mode: 'disconnect' | 'remove') => {
    await ctx.read((q) => requireAgentSession(q, sessionId));
    await app.hub.endSessionByPerson(sessionId, mode, await ctx.person());
    return ctx.read((q) => agentSession(app, q, sessionId));
  };
  return {
    'workers.list': ({ roomId }) =>
      ctx.read(async (q) => {
        if (roomId !== undefined) await requireRoom(q, roomId);
        return agentSessions(app, q, roomId);
      }),

    'workers.rename': async ({ sessionId, name }) => {
      const person = await ctx.person();
      await ctx.write(async (tx) => {
        await requireAgentSession(tx, sessionId);
        return renameSession(tx, sessionId, name, person);
      });
      return ctx.read((q) => agentSession(app, q, sessionId));
    },

    'workers.disconnect': ({ sessionId }) => end(sessionId, 'disconnect'),
    'workers.remove': ({ sessionId }) => end(sessionId, 'remove'),

    'workers.wakes': async ({ sessionId }) => {
      return ctx.read(async (q) => {
        await requireAgentSession(q, sessionId);
        return wakesOf(app, q, sessionId);
      });
    },
  };
}
