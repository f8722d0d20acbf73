// The one mention rule (mcp-tools.md §5.3), for the core (who a message wakes) and the UI (the
// chips it shows): `@` + a name of [A-Za-z0-9_.:/-], at the start of the text or after a
// character that is not a letter, digit or `_`. So `root@vm` is an address, never a mention of
// "vm" (issue 35); and `@root@vm` mentions the person a team names `root@vm` (their user@host).
// Also what makes a name one people can mention, checked as the person types it.
import { normalizeHandle } from './handles';
import { MENTION_CHARACTERS } from './words';

export const BROADCAST_HANDLES: ReadonlySet<string> = new Set(['all', 'here', 'everyone', 'agents']);

const NAME = '[A-Za-z0-9_.:/-]+';
/** What may not stand right before the `@` of a mention. */
const WORD_BEFORE = /[A-Za-z0-9_]/;
/** A mention at the start of a piece of text: `@name`, or a person's `@user@host`. */
const LEADING = new RegExp(`^@(${NAME}(?:@${NAME})?)`);
/** Every mention in a piece of prose (code spans are the caller's to blank out first). */
const EVERY = new RegExp(`(?<![A-Za-z0-9_])@(${NAME}(?:@${NAME})?)`, 'g');

/** Trailing sentence punctuation ("@Cedar." "@Cedar: …"), which a name may hold but rarely means. */
export const withoutTrailingPunctuation = (name: string): string => name.replace(/[.:]+$/, '');

/** The names mentioned in `prose`, as written (with any trailing punctuation), in order. */
export function mentionNamesIn(prose: string): string[] {
  return [...prose.matchAll(EVERY)].map((match) => match[1]);
}

/**
 * The mention `text` starts with, given the character just before it ('' at the start of a
 * message): its raw text and its name without trailing sentence punctuation; null when `text`
 * does not start a mention there.
 */
export function leadingMention(text: string, before: string): { raw: string; name: string } | null {
  if (before !== '' && WORD_BEFORE.test(before)) return null;
  const match = LEADING.exec(text);
  if (!match) return null;
  const name = withoutTrailingPunctuation(match[1]);
  if (name === '') return null;
  return { raw: `@${name}`, name };
}

/** Where in `text` a mention may start (an `@` with nothing word-like before it), or -1. */
export function mentionStart(text: string): number {
  return text.search(EVERY);
}

/** True when one of `mentions` is @all, @here, @everyone or @agents. */
export function isBroadcast(mentions: readonly string[]): boolean {
  return mentions.some((m) => BROADCAST_HANDLES.has(normalizeHandle(m)));
}

/**
 * Why a name that people must be able to mention (a managed agent's) would not be reached by
 * `@name`, by the parser's own rule; null when it would. "Fir Tree!!" is refused: `@Fir Tree!!`
 * mentions only "Fir"; "a@b" would read as a person's user@host.
 */
export function unmentionableName(name: string): string | null {
  const reached = mentionNamesIn(`@${name}`)[0];
  if (reached !== name || name.includes('@')) {
    const suggestion = name.replace(/[^A-Za-z0-9_.:/-]/g, '');
    const who = reached === name ? 'a person (user@host)' : reached ? `"${reached}"` : 'no one';
    return (
      `"${name}" cannot be mentioned: @${name} would reach ${who}. ` +
      `A name people can mention has only ${MENTION_CHARACTERS}, with no spaces${suggestion ? ` (like ${suggestion})` : ''}.`
    );
  }
  const bare = withoutTrailingPunctuation(reached);
  if (isBroadcast([reached, bare])) return `"${name}" mentions everyone (@${name} wakes every agent in the room); choose another name.`;
  return null;
}
