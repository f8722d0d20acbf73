import { describe, expect, it } from 'vitest';
import {
  actorLabel, ideLabel, ownerAttribution, ownerSlug, parseActorLabel, runtimeSlug, slugify,
} from '../../../../src/main/domain/identity/labels';

describe('slugs', () => {
  it('folds to ASCII, lower-cases and joins words with single dashes', () => {
    expect(slugify('Ada Lovelace')).toBe('ada-lovelace');
    expect(slugify('  Zoë   Çelik!! ')).toBe('zoe-celik');
    expect(slugify('--a__b..c--')).toBe('a-b-c');
  });

  it('drops a trailing "-agent"', () => {
    expect(slugify("Ada's Agent")).toBe('ada-s');
    expect(slugify('build-agent')).toBe('build');
    expect(slugify('agent-smith')).toBe('agent-smith');
  });

  it('turns an empty result into "agent"', () => {
    expect(slugify('')).toBe('agent');
    expect(slugify('日本語')).toBe('agent');
    expect(slugify('Agent')).toBe('agent');
  });

  it('uses the GitHub login for the owner slug, else the slug of the owner label', () => {
    expect(ownerSlug({ githubLogin: 'AdaL', ownerLabel: 'Ada Lovelace' })).toBe('adal');
    expect(ownerSlug({ githubLogin: null, ownerLabel: 'Ada Lovelace' })).toBe('ada-lovelace');
    expect(ownerSlug({ ownerLabel: 'ada' })).toBe('ada');
  });

  it('makes the runtime the slug of the IDE label', () => {
    expect(runtimeSlug('Claude Code')).toBe('claude-code');
    expect(runtimeSlug('Gemini CLI')).toBe('gemini-cli');
    expect(runtimeSlug('VS Code')).toBe('vs-code');
  });
});

describe('actor labels', () => {
  it('reads "<name> | <owner>\'s agent | <IDE>"', () => {
    expect(actorLabel('Juniper', 'Ada', 'Claude Code')).toBe("Juniper | Ada's agent | Claude Code");
  });

  it('writes "<owner>\' agent" when the owner ends in s', () => {
    expect(ownerAttribution('James')).toBe("James' agent");
    expect(ownerAttribution('Ada')).toBe("Ada's agent");
    expect(actorLabel('Cedar', 'James', 'Codex')).toBe("Cedar | James' agent | Codex");
  });

  it('fills a blank owner with "Owner", a blank name and an unknown IDE with "Agent"', () => {
    expect(ownerAttribution('  ')).toBe("Owner's agent");
    expect(actorLabel('', '', '')).toBe("Agent | Owner's agent | Agent");
    expect(actorLabel(null, null, null)).toBe("Agent | Owner's agent | Agent");
  });

  it('never lets a "|" in a part break the label apart', () => {
    const label = actorLabel('A|B', 'Ada | Co', 'My|IDE');
    expect(label.split(' | ')).toHaveLength(3);
    expect(parseActorLabel(label)).toEqual({ displayName: 'AB', ownerLabel: 'Ada Co', ideLabel: 'MyIDE' });
  });

  it('parses the current form back into its parts', () => {
    expect(parseActorLabel("Juniper | Ada's agent | Claude Code")).toEqual({
      displayName: 'Juniper', ownerLabel: 'Ada', ideLabel: 'Claude Code',
    });
    expect(parseActorLabel("Cedar | James' agent | Codex")).toEqual({
      displayName: 'Cedar', ownerLabel: 'James', ideLabel: 'Codex',
    });
  });

  it('still parses the legacy form "Name (Owner\'s agent)"', () => {
    expect(parseActorLabel("Juniper (Ada's agent)")).toEqual({ displayName: 'Juniper', ownerLabel: 'Ada', ideLabel: null });
    expect(parseActorLabel("Maple Ridge (James' agent)")).toEqual({ displayName: 'Maple Ridge', ownerLabel: 'James', ideLabel: null });
  });

  it('returns null for text that is not an actor label', () => {
    expect(parseActorLabel('Ada')).toBeNull();
    expect(parseActorLabel('Juniper | Ada | Codex')).toBeNull();
    expect(parseActorLabel('Juniper (Ada)')).toBeNull();
  });
});

describe('IDE labels', () => {
  const fromClient = (clientName: string) => ideLabel({ clientName });

  it('recognises each known client by what its name contains, ignoring case', () => {
    expect(fromClient('Cursor')).toBe('Cursor');
    expect(fromClient('windsurf-client')).toBe('Windsurf');
    expect(fromClient('claude-ai')).toBe('Claude Desktop');
    expect(fromClient('Claude Desktop')).toBe('Claude Desktop');
    expect(fromClient('claude-code')).toBe('Claude Code');
    expect(fromClient('codex-mcp-client')).toBe('Codex');
    expect(fromClient('gemini-cli-mcp-client')).toBe('Gemini CLI');
    expect(fromClient('Antigravity')).toBe('Antigravity');
    expect(fromClient('vscode')).toBe('VS Code');
    expect(fromClient('Visual Studio Code')).toBe('VS Code');
    expect(fromClient('opencode')).toBe('OpenCode');
  });

  it('takes the first match in the spec order when a name contains several', () => {
    expect(fromClient('cursor-vscode')).toBe('Cursor');
    expect(fromClient('windsurf-claude')).toBe('Windsurf');
    expect(fromClient('claude-ai-codex')).toBe('Claude Desktop');
    expect(fromClient('claude-codex')).toBe('Claude Code');
    expect(fromClient('codex-gemini')).toBe('Codex');
    expect(fromClient('antigravity-vscode')).toBe('Antigravity');
    expect(fromClient('vscode-opencode')).toBe('VS Code');
  });

  it('title-cases an unknown client name, and falls back to "Agent"', () => {
    expect(fromClient('zed editor')).toBe('Zed Editor');
    expect(fromClient('mcp-inspector')).toBe('Mcp Inspector');
    expect(ideLabel({})).toBe('Agent');
    expect(ideLabel({ clientName: '  ' })).toBe('Agent');
  });

  it('prefers the --ide flag, then LETAGENTS_AGENT_IDE, over the client name', () => {
    expect(ideLabel({ ideFlag: 'Zed', envIde: 'Helix', clientName: 'cursor' })).toBe('Zed');
    expect(ideLabel({ ideFlag: null, envIde: 'Helix', clientName: 'cursor' })).toBe('Helix');
    expect(ideLabel({ ideFlag: '  ', envIde: '', clientName: 'cursor' })).toBe('Cursor');
  });

  it('gives a flag that names a known client that client\'s label', () => {
    expect(ideLabel({ ideFlag: 'claude', clientName: 'whatever' })).toBe('Claude Code');
    expect(ideLabel({ envIde: 'codex' })).toBe('Codex');
  });
});
