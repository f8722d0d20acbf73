// The clash substitute the spec expects (data-model.md §5.2), computed here apart from the
// app's roomNames.ts so that a change there shows in the tests.
import { codename } from '../../src/main/domain/identity/codenames';
import { normalizeHandle } from '../../src/main/domain/identity/handles';

/**
 * codename("<agent_key>:<k>") for the first k = 1, 2, … whose normalised name is not in
 * `taken` and that does not carry the asked-for name (`taken[0]`) as one of its two words
 * (agent keys are random, so a test cannot assume k = 1 is free or free of "cedar").
 */
export function expectedSubstitute(agentKey: string, taken: string[]): string {
  const takenKeys = new Set(taken.map(normalizeHandle));
  const asked = normalizeHandle(taken[0]);
  for (let k = 1; ; k++) {
    const { displayName, words } = codename(`${agentKey}:${k}`);
    if (!takenKeys.has(normalizeHandle(displayName)) && !words.includes(asked)) return displayName;
  }
}
