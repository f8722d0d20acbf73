import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShellStatus } from '../../../src/main/electron/shellStatus';
import { agentSession, fakeApi, requestItem } from './fakeApi';

afterEach(() => vi.useRealTimers());

describe('what the tray and notifications read', () => {
  it('counts distinct online agents and lists the "Needs you" queue', async () => {
    const { api } = fakeApi({
      sessions: [agentSession('Juniper', true), agentSession('Juniper', true, 'room-2'), agentSession('Rowan', true), agentSession('Sage', false)],
      needsYou: [requestItem(1, 'Juniper', 'Which database?')],
    });
    const status = new ShellStatus(api);
    await status.start();
    expect(status.current().agentsOnline).toBe(2);
    expect(status.current().needsYou.map((item) => item.title)).toEqual(['Which database?']);
    status.stop();
  });

  it('shows nothing (rather than failing) where the app API is not available yet', async () => {
    const { api } = fakeApi();
    const status = new ShellStatus({ ...api, dispatch: async () => ({ ok: false, error: { code: 'not_available', message: 'This is not available yet.' } }) });
    await status.start();
    expect(status.current()).toEqual({ agentsOnline: 0, needsYou: [] });
    status.stop();
  });

  it('reads again, once per burst, after events that change the counts', async () => {
    vi.useFakeTimers();
    const { api, state, emit } = fakeApi();
    const status = new ShellStatus(api);
    const seen: number[] = [];
    status.onChange((next) => seen.push(next.agentsOnline));
    await status.start();
    state.sessions = [agentSession('Juniper', true)];
    emit({ type: 'worker.changed', roomId: 'r', sessionId: 's', change: 'registered' });
    emit({ type: 'message.created', roomId: 'r' });
    emit({ type: 'knowledge.changed', roomId: 'r' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([0, 1]);
    emit({ type: 'knowledge.changed', roomId: 'r' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([0, 1]);
    status.stop();
  });

  it('stops following events when stopped', async () => {
    const { api, listeners } = fakeApi();
    const status = new ShellStatus(api);
    await status.start();
    expect(listeners.size).toBe(1);
    status.stop();
    expect(listeners.size).toBe(0);
  });
});
