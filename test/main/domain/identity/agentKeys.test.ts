import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hashRegistrationKey, isWorkerIdShape, isWorkerSessionIdShape, legacyAgentKey, newLegacySessionId, newWorkerId,
  workerAgentKey, workerSessionId,
} from '../../../../src/main/domain/identity/agentKeys';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('worker ids', () => {
  it('are "worker_" and 32 lowercase hex, fresh every time', () => {
    const a = newWorkerId();
    const b = newWorkerId();
    expect(a).toMatch(/^worker_[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    // A UUID v4 without dashes: version nibble 4.
    expect(a.charAt(7 + 12)).toBe('4');
  });

  it('recognise their own shape only', () => {
    expect(isWorkerIdShape('worker_0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isWorkerIdShape('worker_0123456789ABCDEF0123456789abcdef')).toBe(false);
    expect(isWorkerIdShape('worker_0123')).toBe(false);
    expect(isWorkerIdShape(' worker_0123456789abcdef0123456789abcdef')).toBe(false);
    expect(isWorkerIdShape(42)).toBe(false);
  });
});

describe('keys derived from a worker', () => {
  const worker = 'worker_0123456789abcdef0123456789abcdef';

  it('stores only the sha256 hex of a registration key', () => {
    expect(hashRegistrationKey('secret-key')).toBe(sha('secret-key'));
    expect(hashRegistrationKey('secret-key')).not.toContain('secret');
  });

  it('builds the agent key from the owner slug and a hash that hides the worker id', () => {
    const key = workerAgentKey('ada', worker);
    expect(key).toBe(`ada/worker-${sha(`agent-key\n${worker}`).slice(0, 32)}`);
    expect(key).not.toContain(worker.slice('worker_'.length));
    expect(key).not.toContain(worker);
  });

  it('gives different workers different agent keys', () => {
    expect(workerAgentKey('ada', newWorkerId())).not.toBe(workerAgentKey('ada', newWorkerId()));
  });

  it('gives a worker one stable session id per room', () => {
    const id = workerSessionId(worker, 'R');
    expect(id).toBe(`local_${sha(`${worker}\nR`)}`);
    expect(isWorkerSessionIdShape(id)).toBe(true);
    expect(workerSessionId(worker, 'R')).toBe(id);
    expect(workerSessionId(worker, 'S')).not.toBe(id);
  });
});

describe('legacy sessions', () => {
  it('have "local_" + a UUID v4 as their id', () => {
    const id = newLegacySessionId();
    expect(id).toMatch(/^local_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isWorkerSessionIdShape(id)).toBe(false);
  });

  it('get "<owner slug>/session-<12 hex>" as their agent key', () => {
    const id = 'local_123e4567-e89b-42d3-a456-426614174000';
    expect(legacyAgentKey('ada', id)).toBe(`ada/session-${sha(id).slice(0, 12)}`);
  });
});
