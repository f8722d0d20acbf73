// Labels that say who an agent is (data-model.md §5.3–5.4): slugs, owner attribution,
// the IDE label, and the actor label "Juniper | Ada's agent | Claude Code" with its parser.

const LABEL_SEPARATOR = ' | ';
const MAX_LABEL_PART_CHARS = 64;

/** NFKD ASCII fold, lower-case, non-alphanumeric runs to "-", dashes trimmed, a trailing "-agent" dropped; "" → "agent". */
export function slugify(value: string): string {
  const slug = value
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/-agent$/, '');
  return slug === '' ? 'agent' : slug;
}

/**
 * One part of an actor label: no control characters and no "|", so a label always
 * splits back into its three parts; capped so a label stays within the sender limit.
 */
function cleanLabelPart(value: string | null | undefined): string {
  const cleaned = (value ?? '').replace(/[\p{Cc}|]/gu, '').replace(/\s+/gu, ' ').trim();
  return [...cleaned].slice(0, MAX_LABEL_PART_CHARS).join('').trim();
}

/** "Ada's agent", "James' agent"; a blank owner becomes "Owner". */
export function ownerAttribution(owner: string | null | undefined): string {
  const name = cleanLabelPart(owner) || 'Owner';
  return /s$/i.test(name) ? `${name}' agent` : `${name}'s agent`;
}

/** "<Display Name> | <Owner attribution> | <IDE label>"; blank name and blank IDE become "Agent". */
export function actorLabel(displayName: string | null | undefined, owner: string | null | undefined, ide: string | null | undefined): string {
  return [cleanLabelPart(displayName) || 'Agent', ownerAttribution(owner), cleanLabelPart(ide) || 'Agent'].join(LABEL_SEPARATOR);
}

/** Known clients, matched case-insensitively against clientInfo.name in this order; first match wins. */
const KNOWN_IDES: ReadonlyArray<{ needles: readonly string[]; label: string }> = [
  { needles: ['cursor'], label: 'Cursor' },
  { needles: ['windsurf'], label: 'Windsurf' },
  { needles: ['claude-ai', 'claude desktop'], label: 'Claude Desktop' },
  { needles: ['claude'], label: 'Claude Code' },
  { needles: ['codex'], label: 'Codex' },
  { needles: ['gemini'], label: 'Gemini CLI' },
  { needles: ['antigravity'], label: 'Antigravity' },
  { needles: ['vscode', 'visual studio code'], label: 'VS Code' },
  { needles: ['opencode'], label: 'OpenCode' },
];

function knownIde(name: string): string | null {
  const lower = name.toLowerCase();
  return KNOWN_IDES.find((ide) => ide.needles.some((needle) => lower.includes(needle)))?.label ?? null;
}

function titleCaseClientName(name: string): string {
  return cleanLabelPart(name.replace(/[-_]+/g, ' ')).replace(/(^|\s)(\S)/g, (_m, space: string, c: string) => space + c.toUpperCase());
}

export interface IdeSources {
  /** The helper's --ide flag. */
  ideFlag?: string | null;
  /** LETAGENTS_AGENT_IDE, as the helper reported it. */
  envIde?: string | null;
  /** The MCP clientInfo.name. */
  clientName?: string | null;
}

/**
 * The IDE label, first available: the --ide flag or LETAGENTS_AGENT_IDE; the known
 * client matched from clientInfo.name; the title-cased client name; "Agent".
 * A flag naming a known client ("cursor") gets that client's label too, so one IDE
 * always carries one label; any other flag is used as given.
 */
export function ideLabel(sources: IdeSources): string {
  const explicit = cleanLabelPart(sources.ideFlag) || cleanLabelPart(sources.envIde);
  if (explicit) return knownIde(explicit) ?? explicit;
  const client = cleanLabelPart(sources.clientName);
  if (!client) return 'Agent';
  return knownIde(client) ?? (titleCaseClientName(client) || 'Agent');
}

/** The runtime label: the slug of the IDE label ("claude-code"). */
export function runtimeSlug(ide: string): string {
  return slugify(ide);
}

/** The GitHub login lower-cased, or else the slug of the owner label. */
export function ownerSlug(owner: { githubLogin?: string | null; ownerLabel: string }): string {
  const login = owner.githubLogin?.trim().toLowerCase();
  return login ? login : slugify(owner.ownerLabel);
}

export interface ParsedActorLabel {
  displayName: string;
  ownerLabel: string;
  /** Null for the legacy form, which names no IDE. */
  ideLabel: string | null;
}

function parseAttribution(attribution: string): string | null {
  const match = /^(.+?)'s agent$/.exec(attribution) ?? /^(.+s)' agent$/i.exec(attribution);
  return match ? match[1] : null;
}

/** Parses "Name | Owner's agent | IDE" and the legacy "Name (Owner's agent)"; null for anything else. */
export function parseActorLabel(label: string): ParsedActorLabel | null {
  const parts = label.split(LABEL_SEPARATOR);
  if (parts.length === 3 && parts.every((p) => p.trim() !== '')) {
    const owner = parseAttribution(parts[1]);
    if (owner) return { displayName: parts[0], ownerLabel: owner, ideLabel: parts[2] };
  }
  const legacy = /^(.+?) \((.+)\)$/.exec(label);
  if (legacy) {
    const owner = parseAttribution(legacy[2]);
    if (owner) return { displayName: legacy[1], ownerLabel: owner, ideLabel: null };
  }
  return null;
}

/** The sender of a message as agents know it: an agent's display name ("Juniper"), a person's or the app's label as is. */
export function senderNameOf(row: { readonly source: 'agent' | 'human' | 'system'; readonly sender: string }): string {
  if (row.source === 'agent') return parseActorLabel(row.sender)?.displayName ?? row.sender;
  return row.sender;
}
