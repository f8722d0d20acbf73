// Worker bindings (worker-handles.md §6 step 6, §7 step 4): when a registration that
// captured a predecessor may still swap, and who is told a person ended the session.
import { describe, expect, it } from 'vitest';
import { WorkerBindings } from '../../../src/main/mcp/bindings';
import { ConnectionState } from '../../../src/main/mcp/connectionState';

const W11 = 'Worker registration was superseded; retry explicitly.';
const connection = (id: string) => new ConnectionState({ id, transport: 'socket', cwd: null, ideHint: null });

function heldByC1() {
  const bindings = new WorkerBindings();
  const [c1, c2] = [connection('c1'), connection('c2')];
  bindings.connectionOpened('c1');
  bindings.connectionOpened('c2');
  bindings.swap(c1, 'local_s', undefined);
  return { bindings, c1, c2, predecessor: bindings.binding('local_s') };
}

describe('taking over a session while its holder changes', () => {
  it('succeeds when the holder\'s connection merely closed meanwhile (a retry after a lost response)', () => {
    const { bindings, c1, c2, predecessor } = heldByC1();
    bindings.connectionClosed(c1);
    bindings.swap(c2, 'local_s', predecessor);
    expect(bindings.holds(c2, 'local_s')).toBe(true);
  });

  it('is superseded (W11) when the holder disconnected or a person ended the session meanwhile', () => {
    const disconnected = heldByC1();
    disconnected.bindings.unbind('local_s', disconnected.c1);
    expect(() => disconnected.bindings.swap(disconnected.c2, 'local_s', disconnected.predecessor)).toThrow(W11);

    const ended = heldByC1();
    ended.bindings.connectionClosed(ended.c1);
    ended.bindings.unbindAll('local_s');
    expect(() => ended.bindings.swap(ended.c2, 'local_s', ended.predecessor)).toThrow(W11);
  });

  it('is superseded (W11) when someone else took the session over meanwhile', () => {
    const { bindings, c2, predecessor } = heldByC1();
    const c3 = connection('c3');
    bindings.swap(c3, 'local_s', predecessor);
    expect(() => bindings.swap(c2, 'local_s', predecessor)).toThrow(W11);
  });
});

describe('a person ending a session', () => {
  it('is reported (W15) only to the connection that held the session until then', () => {
    const { bindings, c1, c2, predecessor } = heldByC1();
    bindings.swap(c2, 'local_s', predecessor);
    bindings.unbindAll('local_s');
    expect(bindings.heldWhenEndedByPerson(c2, 'local_s')).toBe(true);
    expect(bindings.heldWhenEndedByPerson(c1, 'local_s')).toBe(false);
    bindings.swap(c2, 'local_s', undefined);
    expect(bindings.heldWhenEndedByPerson(c2, 'local_s')).toBe(false);
  });
});
