// Names in a sentence, the same in the core's texts and the UI: "Atlas", "Atlas and Birch",
// "Atlas, Birch and Cedar".
export function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'The agents';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The characters a mention may hold (the mention parser's rule), for people choosing a managed agent's name. */
export const MENTION_CHARACTERS = 'letters A–Z and a–z, digits, and _ . : / -';
