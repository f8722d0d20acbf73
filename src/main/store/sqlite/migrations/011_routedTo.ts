// Migration 11 (issue 34): whom a person's message that names nobody wakes, decided once when
// it is posted (domain/activation/untagged.ts) and stored with it, so every wait, push and
// managed turn, on every machine and later, reads the same answer. JSON; null for every other
// message (and for those posted before: today's rule).

export const migration011 = `
ALTER TABLE messages ADD COLUMN routed_to TEXT;
`;
