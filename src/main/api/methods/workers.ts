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
    requireAgentSession(ctx.db, sessionId);
    await app.hub.endSessionByPerson(sessionId, mode, ctx.person());
    return agentSession(app, ctx.db, sessionId);
  };
  return {
    'workers.list': ({ roomId }) => {
      if (roomId !== undefined) requireRoom(ctx.db, roomId);
      return agentSessions(app, ctx.db, roomId);
    },

    'workers.rename': async ({ sessionId, name }) => {
      await ctx.write((tx) => {
        requireAgentSession(tx.db, sessionId);
        return renameSession(tx, sessionId, name, ctx.person());
      });
      return agentSession(app, ctx.db, sessionId);
    },

    'workers.disconnect': ({ sessionId }) => end(sessionId, 'disconnect'),
    'workers.remove': ({ sessionId }) => end(sessionId, 'remove'),

    'workers.wakes': ({ sessionId }) => {
      requireAgentSession(ctx.db, sessionId);
      return wakesOf(app, ctx.db, sessionId);
    },
  };
}
