// @vitest-environment happy-dom
// Settings → Teams as a person uses it: each team's live connection state, adding one (the
// URL typed into a password field and never shown again with its password), testing,
// repo patterns, the default place, and removing after a confirmation — all by keyboard too.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp, toasts } from './support/renderApp';
import { emptyState, type FakeState } from './support/fakeApi';
import { fakeTeam } from './support/fakeTeams';

afterEach(cleanup);

const SECRET = 'Sup3r-s3cret';

function withTeams(...teams: ReturnType<typeof fakeTeam>[]): FakeState {
  const state = emptyState();
  state.teams.teams = teams;
  return state;
}

const open = (state = withTeams()) => renderApp({ state, route: { view: 'settings' } });
const teamCard = (name: string) => screen.getByRole('listitem', { name });

describe('Settings → Teams', () => {
  it('lists each team with its state, URL without password and where the URL comes from', async () => {
    open(
      withTeams(
        fakeTeam('acme', { patterns: ['github.com/acme/*'] }),
        fakeTeam('nightly', { source: 'environment', variable: 'LETAGENTS_TEAM_URL_NIGHTLY', url: 'postgres://ci:***@127.0.0.1:5432/ci', tls: null, connection: { status: 'offline', since: new Date().toISOString(), reason: 'ECONNREFUSED: cannot reach the database server', retryAt: new Date().toISOString() } }),
      ),
    );
    const acme = await screen.findByRole('listitem', { name: 'acme' });
    expect(within(acme).getByText('Connected')).toBeTruthy();
    expect(within(acme).getByText('postgres://ada:***@db.acme.example.com:5432/acme?sslmode=verify-full')).toBeTruthy();
    expect(within(acme).getByText(/URL from the keychain · TLS verify-full/)).toBeTruthy();
    expect((within(acme).getByRole('textbox', { name: 'Repo patterns' }) as HTMLTextAreaElement).value).toBe('github.com/acme/*');
    const nightly = teamCard('nightly');
    expect(within(nightly).getByText('Offline, reconnecting')).toBeTruthy();
    expect(within(nightly).getByText(/ECONNREFUSED: cannot reach the database server \(since just now\)/)).toBeTruthy();
    expect(within(nightly).getByText('Set by LETAGENTS_TEAM_URL_NIGHTLY; unset it to remove the team.')).toBeTruthy();
    expect(within(nightly).queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it('says when there is no team yet', async () => {
    open();
    expect(await screen.findByText('No teams yet: every room is on this computer.')).toBeTruthy();
  });

  it('follows a connection going offline and coming back, as teams.changed reports it', async () => {
    const state = withTeams(fakeTeam('acme'));
    const { api } = open(state);
    // Settings → Teams, and the sidebar's group of the team's rooms, both say how the team is.
    const teams = await screen.findByRole('list', { name: 'Teams' });
    const sidebar = screen.getByRole('navigation', { name: 'LetAgents' });
    await within(teams).findByText('Connected');
    await within(sidebar).findByText('Connected');
    state.teams.teams[0].connection = { status: 'offline', since: new Date().toISOString(), reason: 'Connection terminated unexpectedly', retryAt: new Date().toISOString() };
    act(() => api.emit({ type: 'teams.changed', connections: [{ name: 'acme', connection: state.teams.teams[0].connection }] }));
    expect(await within(teams).findByText('Offline, reconnecting')).toBeTruthy();
    expect(await within(sidebar).findByText('Offline, reconnecting')).toBeTruthy();
    state.teams.teams[0].connection = { status: 'online' };
    act(() => api.emit({ type: 'teams.changed', connections: [{ name: 'acme', connection: { status: 'online' } }] }));
    expect(await within(teams).findByText('Connected')).toBeTruthy();
  });

  it('adds a team by keyboard: the URL goes in a password field and comes back only without its password', async () => {
    const { api } = open();
    const add = await screen.findByRole('button', { name: 'Add a team' });
    add.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Add a team' });
    const name = within(dialog).getByRole('textbox', { name: 'Team name' });
    expect(document.activeElement).toBe(name);
    const url = within(dialog).getByLabelText('Database URL') as HTMLInputElement;
    expect(url.type).toBe('password');
    await userEvent.type(name, 'acme');
    await userEvent.tab();
    expect(document.activeElement).toBe(url);
    await userEvent.type(url, `postgres://ada:${SECRET}@db.acme.example.com/acme?sslmode=verify-full`);
    await userEvent.tab();
    await userEvent.keyboard(' ');
    expect((within(dialog).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    await userEvent.type(url, '{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((c) => c.method === 'teams.add')?.input).toEqual({ name: 'acme', url: `postgres://ada:${SECRET}@db.acme.example.com/acme?sslmode=verify-full`, allowPlaintext: true });
    expect(await screen.findByText('postgres://ada:***@db.acme.example.com/acme?sslmode=verify-full')).toBeTruthy();
    expect(within(toasts()).getByText(/^Team acme added\. Reachable \(PostgreSQL 16\.4\)/)).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('keeps the dialog open with the reason when the team cannot be added, and checks the name first', async () => {
    const state = withTeams();
    state.teams.test = { ...state.teams.test, reachable: false, reason: 'ECONNREFUSED: cannot reach the database server' };
    const { api } = open(state);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a team' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a team' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Team name' }), 'acme corp');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Test and add' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('A team name has 1–40 letters, digits, "-" or "_".');
    expect(api.calls.some((c) => c.method === 'teams.add')).toBe(false);
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Team name' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Team name' }), 'acme');
    await userEvent.type(within(dialog).getByLabelText('Database URL'), 'postgres://postgres@127.0.0.1:1/x{Enter}');
    expect(await within(dialog).findByText(/Cannot connect to the team database: ECONNREFUSED.*Nothing was added\./)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add a team' })).toBeTruthy();
    expect(state.teams.teams).toEqual([]);
  });

  it('tests a team and says what it found', async () => {
    open(withTeams(fakeTeam('acme')));
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await within(teamCard('acme')).findByRole('status')).toHaveProperty('textContent', 'Reachable (PostgreSQL 16.4) · schema 2 · 0.8 ms · TLS on, certificate and host name verified.');
  });

  it('says what the poll costs when LISTEN does not work on the team\'s endpoint', async () => {
    const state = withTeams(fakeTeam('acme'));
    state.teams.test = { ...state.teams.test, wakeUps: { mode: 'poll', direct: false, pollSeconds: 5 } };
    open(state);
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    const said = (await within(teamCard('acme')).findByRole('status')).textContent;
    expect(said).toContain("Other machines' changes are polled every 5 s: LISTEN does not work on this endpoint (a transaction-mode pooler?)");
    expect(said).toContain('each poll is one query (on a pooled connection that stays open) returning only the rooms changed since the last one');
    expect(said).toContain('team add … --listen-url');
  });

  it('saves repo patterns, and shows why a pattern is refused', async () => {
    const state = withTeams(fakeTeam('acme'));
    open(state);
    const patterns = await screen.findByRole('textbox', { name: 'Repo patterns' });
    const save = screen.getByRole('button', { name: 'Save patterns' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await userEvent.type(patterns, 'acme');
    await userEvent.click(save);
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs a host and at least one more part/);
    await userEvent.clear(patterns);
    await userEvent.type(patterns, 'GitHub.com/Acme/*{Enter}github.com/beta/*');
    await userEvent.click(save);
    await waitFor(() => expect(state.teams.teams[0].patterns).toEqual(['github.com/acme/*', 'github.com/beta/*']));
    expect((patterns as HTMLTextAreaElement).value).toBe('github.com/acme/*\ngithub.com/beta/*');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('chooses where new rooms go', async () => {
    const state = withTeams(fakeTeam('acme'));
    open(state);
    const place = await screen.findByRole('combobox', { name: 'New rooms go to' });
    expect((place as HTMLSelectElement).value).toBe('local');
    await userEvent.selectOptions(place, 'Team acme');
    await waitFor(() => expect(state.teams.defaultPlace).toBe('acme'));
    expect(await within(teamCard('acme')).findByText('Default place')).toBeTruthy();
  });

  it('removes a team only after the confirmation', async () => {
    const state = withTeams(fakeTeam('acme'));
    open(state);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove the team acme?' });
    expect(within(confirm).getByText(/rooms stay in its database/)).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(state.teams.teams).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove team' }));
    expect(await screen.findByText('No teams yet: every room is on this computer.')).toBeTruthy();
    expect(within(toasts()).getByText('Team acme removed.')).toBeTruthy();
  });
});
