// The providers registry (src/main/agents/providers/index.ts) is the one list of agent CLIs:
// what each entry must give (a test names what is missing), how the command line's names map
// to ids, and a clear refusal of an id the app does not know.
import { describe, expect, it } from 'vitest';
import { AgentPermissions } from '../../../src/shared/model/managedAgents';
import { cliNamesOf, isProviderId, PROVIDER_LIST, providerName, providerOf } from '../../../src/main/agents/providers';
import { DomainError } from '../../../src/main/domain/errors';

describe('the providers registry', () => {
  it.each(PROVIDER_LIST.map((p) => [p.id, p] as const))('%s gives everything a provider must', (id, provider) => {
    expect(id, 'an id is stored with each agent: lower case, digits and _').toMatch(/^[a-z][a-z0-9_]{0,39}$/);
    expect(provider.name.trim(), `${id}: a name people see`).not.toBe('');
    expect(provider.executable.trim(), `${id}: the executable looked up on PATH`).not.toBe('');
    expect(provider.installHint.trim(), `${id}: how to install it`).not.toBe('');
    // Add agent starts on "read only" and falls back to it when another CLI is chosen.
    expect(provider.permissions, `${id}: its permission choices, read_only first`).toContain('read_only');
    for (const p of provider.permissions) expect(AgentPermissions.options, `${id}: ${p} is no permission choice`).toContain(p);
  });

  it('gives every provider a distinct id, and command-line names that mean one provider each', () => {
    const ids = PROVIDER_LIST.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const names = PROVIDER_LIST.flatMap((p) => cliNamesOf(p));
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'a --provider name two providers share').toEqual([]);
    expect(cliNamesOf(providerOf('claude_code'))).toEqual(['claude', 'claude-code', 'claude_code']);
    expect(cliNamesOf(providerOf('gemini'))).toEqual(['gemini', 'gemini-cli']);
  });

  it('refuses an id it does not know with the ids it has, and names a stored one it no longer knows by its id', () => {
    expect(isProviderId('codex')).toBe(true);
    expect(isProviderId('toString')).toBe(false);
    expect(() => providerOf('cursor')).toThrow(DomainError);
    expect(() => providerOf('cursor')).toThrow(`"cursor" is not an agent CLI this app runs: use one of ${PROVIDER_LIST.map((p) => p.id).join(', ')}.`);
    expect(providerName('codex')).toBe('Codex');
    expect(providerName('retired_cli')).toBe('retired_cli');
  });
});
