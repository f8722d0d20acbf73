import { describe, expect, it } from 'vitest';
import { cleanDisplayName } from '../../../../src/main/domain/identity/names';
import { normalizeHandle } from '../../../../src/main/domain/identity/handles';

describe('cleaning a requested display name', () => {
  it('trims and collapses whitespace', () => {
    expect(cleanDisplayName('  Juniper   Ridge  ')).toBe('Juniper Ridge');
  });

  it('removes control characters and the label separator "|"', () => {
    expect(cleanDisplayName('Jun\u0000ip\u001ber|')).toBe('Juniper');
    expect(cleanDisplayName('Juniper | Ada')).toBe('Juniper Ada');
    expect(cleanDisplayName('\u0007 Cedar')).toBe('Cedar');
  });

  it('keeps names of 1 to 64 characters, counting characters rather than bytes', () => {
    expect(cleanDisplayName('a')).toBe('a');
    expect(cleanDisplayName('x'.repeat(64))).toBe('x'.repeat(64));
    expect(cleanDisplayName('é'.repeat(64))).toBe('é'.repeat(64));
    expect(cleanDisplayName('😀'.repeat(64))).toBe('😀'.repeat(64));
  });

  it('treats a name outside 1–64 characters, or no name at all, as no name', () => {
    expect(cleanDisplayName('x'.repeat(65))).toBeNull();
    expect(cleanDisplayName('   ')).toBeNull();
    expect(cleanDisplayName('|||')).toBeNull();
    expect(cleanDisplayName('')).toBeNull();
    expect(cleanDisplayName(null)).toBeNull();
    expect(cleanDisplayName(undefined)).toBeNull();
  });
});

describe('handle normalisation', () => {
  it('lower-cases ASCII letters and keeps [a-z0-9_.:/-]', () => {
    expect(normalizeHandle('Juniper')).toBe('juniper');
    expect(normalizeHandle('ada/worker-1_2.3:x')).toBe('ada/worker-1_2.3:x');
  });

  it('removes every other character, so spacing and accents do not make a new name', () => {
    expect(normalizeHandle('Maple Ridge!')).toBe('mapleridge');
    expect(normalizeHandle('Jüniper')).toBe('jniper');
    expect(normalizeHandle('JUNIPER')).toBe(normalizeHandle('juniper'));
  });
});
