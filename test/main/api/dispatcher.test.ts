// The one dispatcher: checks names and input against the contract, maps domain errors to
// {code, message}, hides unexpected failures, and returns only what the contract declares.
import { describe, expect, it, vi } from 'vitest';
import { createDispatcher, type ApiImplementation } from '../../../src/main/api/dispatcher';
import { errors } from '../../../src/main/domain/errors';
import { METHOD_NAMES } from '../../../src/shared/bridge';
import { contract } from '../../../src/shared/contract';
import { TRANSITIONS } from '../../../src/shared/taskTransitions';

const room = { id: 'Release planning', place: 'local', kind: 'named', name: 'Release planning', repo: null, code: null, pinned: false, archived: false, unread: 0, lastNumber: 0, lastActivityAt: null, onlineAgents: 0, replyToAll: 'in_turn' } as const;

describe('app API dispatcher', () => {
  it('the contract and the preload name list hold the same methods', () => {
    expect(Object.keys(contract).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('answers {ok:true,value} with the validated output', async () => {
    const dispatch = createDispatcher({ 'rooms.list': () => [room] });
    expect(await dispatch('rooms.list', {})).toEqual({ ok: true, value: [room] });
  });

  it('refuses a method outside the contract', async () => {
    const dispatch = createDispatcher({});
    expect(await dispatch('rooms.drop', {})).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method.' } });
    expect(await dispatch('__proto__', {})).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method.' } });
  });

  it('refuses bad input with the field and the reason, and never calls the implementation', async () => {
    const create = vi.fn();
    const dispatch = createDispatcher({ 'tasks.create': create });
    expect(await dispatch('tasks.create', { roomId: 'r', title: '   ' })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'title: Task title is required.' } });
    expect(await dispatch('tasks.create', { roomId: 'r', title: 'x', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await dispatch('messages.send', { roomId: 'r', text: 'x'.repeat(262_145) })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'This message is 257 KB; the limit is 256 KB.' } });
    expect(await dispatch('rooms.rename', { roomId: 'a\u0000b', name: 'x' })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'roomId: Room id must be 1–512 characters with no control characters.' } });
    expect(await dispatch('tasks.move', 'not an object')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(create).not.toHaveBeenCalled();
  });

  it('answers not_available for a method the core does not provide yet', async () => {
    expect(await createDispatcher({})('setup.status', {})).toEqual({ ok: false, error: { code: 'not_available', message: 'This is not available yet.' } });
  });

  it("maps a domain error to its code and the spec's exact phrase", async () => {
    const dispatch = createDispatcher({
      'tasks.move': () => {
        throw errors.T1('proposed', 'done', TRANSITIONS.proposed);
      },
    });
    expect(await dispatch('tasks.move', { roomId: 'r', number: 7, to: 'done' })).toEqual({
      ok: false,
      error: { code: 'T1', message: 'Invalid transition: proposed -> done. Allowed: accepted, cancelled' },
    });
  });

  it("passes the keychain's own explanation for O3", async () => {
    const dispatch = createDispatcher({
      'auth.startDeviceFlow': () => {
        throw errors.O3('No Secret Service: install and unlock gnome-keyring or KWallet.');
      },
    });
    expect(await dispatch('auth.startDeviceFlow', {})).toEqual({ ok: false, error: { code: 'O3', message: 'No Secret Service: install and unlock gnome-keyring or KWallet.' } });
  });

  it('hides an unexpected failure behind a plain message and reports it', async () => {
    const onUnexpected = vi.fn();
    const dispatch = createDispatcher({ 'rooms.list': () => { throw new Error('SQLITE_CORRUPT at /home/ada/secret/path'); } }, { onUnexpected });
    const result = await dispatch('rooms.list', {});
    expect(result).toEqual({ ok: false, error: { code: 'internal', message: 'Something went wrong. Details are in the app log.' } });
    expect(JSON.stringify(result)).not.toContain('/home/ada');
    expect(onUnexpected).toHaveBeenCalledWith('rooms.list', expect.any(Error));
  });

  it('refuses an output that breaks the contract instead of passing it on', async () => {
    const onUnexpected = vi.fn();
    const dispatch = createDispatcher({ 'rooms.list': () => [{ ...room, kind: 'secret' }] as never }, { onUnexpected });
    expect(await dispatch('rooms.list', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(onUnexpected).toHaveBeenCalled();
  });

  it('drops fields the contract does not declare (a token can never reach the UI by accident)', async () => {
    const status = { signedIn: true, account: { login: 'ada', name: null, avatarUrl: null, token: 'gho_secret' }, keychain: { available: true, message: null }, clientConfigured: true, pending: null, token: 'gho_secret' };
    const dispatch = createDispatcher({ 'auth.status': () => status as never });
    const result = await dispatch('auth.status', {});
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain('gho_secret');
  });

  it('awaits async implementations', async () => {
    const dispatch = createDispatcher({ 'app.openExternal': async () => ({ opened: true }) } satisfies Partial<ApiImplementation>);
    expect(await dispatch('app.openExternal', { url: 'https://github.com/login/device' })).toEqual({ ok: true, value: { opened: true } });
  });

  it('treats a missing input as an empty object', async () => {
    const dispatch = createDispatcher({ 'needsYou.list': () => ({ items: [] }) });
    expect(await dispatch('needsYou.list', undefined)).toEqual({ ok: true, value: { items: [] } });
  });
});
