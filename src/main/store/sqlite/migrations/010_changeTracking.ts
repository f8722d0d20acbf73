// Migration 10 (issue 32): the people who posted in a room, found without reading its every
// message (an agent may not take a person's name: domain/identity/personNames.ts). The team
// database's 010 also adds the change tracking its poll fallback needs, which nothing needs in
// a file of this computer.

export const migration010 = `
CREATE INDEX messages_people ON messages (room_id, sender) WHERE source = 'human';
`;
