// Mentions (mcp-tools.md §5.3) by the one rule the UI shares (shared/mentions.ts), outside
// inline code and fenced code blocks. Names are compared after handle normalisation
// (data-model.md §5.2).
import { mentionNamesIn, withoutTrailingPunctuation } from '../../../shared/mentions';
import { normalizeHandle } from '../identity/handles';

export { BROADCAST_HANDLES, isBroadcast, unmentionableName } from '../../../shared/mentions';

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;

/**
 * The handles mentioned in `text`, without the `@`, in order and without duplicates.
 * A handle ending in `.` or `:` (end of a sentence, "@Cedar: …") is also listed without
 * that punctuation, so both readings can match a name.
 */
export function extractMentions(text: string): string[] {
  const found = new Set<string>();
  for (const block of proseOf(text)) {
    for (const name of mentionNamesIn(block)) {
      found.add(name);
      const bare = withoutTrailingPunctuation(name);
      if (bare !== '' && bare !== name) found.add(bare);
    }
  }
  return [...found];
}

/** A mention of `displayName` as a message writes it: without whitespace, so "@Code Bot" reads as one mention and wakes it. */
export function mentionOf(displayName: string): string {
  return `@${displayName.replace(/\s+/g, '')}`;
}

/** True when one of `mentions` names `displayName` after handle normalisation. */
export function mentionsName(mentions: readonly string[], displayName: string): boolean {
  const handle = normalizeHandle(displayName);
  return handle !== '' && mentions.some((m) => normalizeHandle(m) === handle);
}

// The text outside fenced blocks, as prose blocks with inline code spans blanked out.
function proseOf(text: string): string[] {
  const blocks: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (prose.length > 0) blocks.push(blankInlineCode(prose.join('\n')));
    prose = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (fence !== null) {
      // A fence closes on a line of at least as many of the same character, and nothing else.
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      flush();
      fence = open[1];
      continue;
    }
    prose.push(line);
  }
  flush();
  return blocks;
}

// Inline code: a run of N backticks up to the next run of exactly N backticks.
function blankInlineCode(block: string): string {
  return block.replace(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}
