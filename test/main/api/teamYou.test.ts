// Whose messages are the person's own in a team room (issue 24 item 9): the team's people
// all post as `human`, and only the ones under this person's team name are "You". Real
// PostgreSQL (throwaway); the other person's message is written through the team's storage
// as their app would, since a second person cannot sign in on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/main/domain/messages/send';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../support/postgres';
import { eventsOf, setUpApi } from './harness';

let cluster: PgCluster;

describe.skipIf(!runPostgresSuites)('the person\'s own messages in a team room', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('marks only the person\'s messages as theirs; another person of the team is not "You"', async () => {
    const api = await setUpApi();
    await api.call('teams.add', { name: 'acme', url: await cluster.createDatabase() });
    await api.call('rooms.create', { name: 'retro', place: 'acme' });
    const mine = await api.call('messages.send', { roomId: 'retro', place: 'acme', text: 'Mine.' });
    expect(mine).toMatchObject({ source: 'human', fromYou: true });
    const team = await api.app.places.get('acme');
    await team.write((tx) => sendMessage(tx, { roomId: 'retro', author: { kind: 'person', label: 'bob@desktop' }, text: 'Bob here.', replyTo: null, threadRootId: null }));
    const page = await api.call('messages.timeline', { roomId: 'retro', place: 'acme' });
    expect(page.messages.map((m) => [m.sender.name, m.source, m.fromYou])).toEqual([
      [mine.sender.name, 'human', true],
      ['bob@desktop', 'human', false],
    ]);
    expect(eventsOf(api.events, 'message.created').find((e) => e.message.text === 'Mine.')?.message.fromYou).toBe(true);
  });

  it('keeps every person\'s message "You" on this computer', async () => {
    const api = await setUpApi();
    await api.call('rooms.create', { name: 'lab' });
    await api.call('messages.send', { roomId: 'lab', text: 'Local.' });
    expect((await api.call('messages.timeline', { roomId: 'lab' })).messages.map((m) => m.fromYou)).toEqual([true]);
  });
});
