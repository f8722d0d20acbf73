// @vitest-environment happy-dom
// The agents roster: states, presence, rename (with the name-clash refusal), disconnect and
// remove with confirmations, the room filter, and the room header's presence chips.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { renderApp, never } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { emptyState } from './support/fakeApi';
import { agent, at } from './support/fakeData';
import type { Wake } from '../../src/shared/types';
import { managedAgent } from './support/fakeManagedAgents';

afterEach(cleanup);

const openRoster = (state = demoState(), overrides = {}) => renderApp({ state, route: { view: 'agents' }, overrides });
const row = (name: string) => screen.getAllByRole('listitem').find((li) => li.querySelector('.agent-name')?.textContent === name)!;

describe('agents roster', () => {
  it('lists agents by whether a mention reaches them, with tool, reachability in words, status text, rooms, tasks, tokens and last seen', async () => {
    openRoster();
    await screen.findByText(/Says: pushing the transaction fix/);
    const names = [...document.querySelectorAll('.agent-name')].map((e) => e.textContent);
    // Listening first, then working, idle, and offline last.
    expect(names).toEqual(['Cedar', 'MapleRidge', 'Juniper', 'MapleRidge', 'Willow']);
    expect(within(row('Cedar')).getByText('Listening')).toBeTruthy();
    expect(within(row('Cedar')).getByText('Waiting for messages now: a mention wakes it at once.')).toBeTruthy();
    const juniper = row('Juniper');
    expect(within(juniper).getByText('Claude Code')).toBeTruthy();
    // One state word (whether a mention reaches it), then its own words: no second "Working"/"Idle".
    expect(within(juniper).getAllByText('Working')).toHaveLength(1);
    expect(within(juniper).getByText('Says: pushing the transaction fix')).toBeTruthy();
    expect(within(juniper).queryByText(/^Idle/)).toBeNull();
    expect(within(juniper).getByText('≈ 0 today · 0 total')).toBeTruthy();
    expect(within(juniper).getByText('task_12')).toBeTruthy();
    expect(within(juniper).getByText('Now')).toBeTruthy();
    const willow = row('Willow');
    expect(within(willow).getByText('Offline')).toBeTruthy();
    expect(within(willow).getByText(/ago/)).toBeTruthy();
    expect(screen.getByText('5 agents: 4 online')).toBeTruthy();
  });

  it('counts managed agents, and lists ended ones (disconnected or removed) under Past agents, out of the counts (issue 35)', async () => {
    const state = demoState();
    state.agents.push(
      agent(DEMO_REPO_ROOM, 'github.com/acme/checkout-service', 'Rowan', { online: false, ended: true, reachability: 'offline' }),
      agent(DEMO_REPO_ROOM, 'github.com/acme/checkout-service', 'Alder', { online: false, reachability: 'managed', sessionId: 'local_alder' }),
    );
    openRoster(state, { 'agents.list': () => [managedAgent('Alder')] });
    expect(await screen.findByText('6 agents: 4 online, 1 managed')).toBeTruthy();
    const current = screen.getByRole('list', { name: 'Agents' });
    expect(within(current).queryByText('Rowan')).toBeNull();
    // Alder has its managed card above: once on the page.
    expect(within(current).queryByText('Alder')).toBeNull();
    const past = screen.getByText(/^Past agents \(1\)/).closest('details')!;
    expect(past.open).toBe(false);
    expect(within(past).getByText('Rowan')).toBeTruthy();
    expect(within(past).getByText('Disconnected')).toBeTruthy();
  });

  it('filters by room', async () => {
    openRoster();
    await screen.findByText(/Says: pushing the transaction fix/);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Room' }), 'acme/web-app');
    expect([...document.querySelectorAll('.agent-name')].map((e) => e.textContent)).toEqual(['MapleRidge']);
  });

  it('rename shows the clash refusal in place, then renames', async () => {
    let clash = true;
    const state = demoState();
    const { api } = openRoster(state, {
      'workers.rename': ({ sessionId, name }: { sessionId: string; name: string }) => {
        if (clash) {
          clash = false;
          throw appErrors.nameTaken();
        }
        const agent = state.agents.find((a) => a.sessionId === sessionId)!;
        agent.name = name;
        return agent;
      },
    });
    await screen.findByText(/Says: pushing the transaction fix/);
    await userEvent.click(within(row('Juniper')).getByRole('button', { name: 'Actions for Juniper' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename…' }));
    const input = screen.getByRole('textbox', { name: 'Name in this room' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Cedar{Enter}');
    expect(await screen.findByText('Another agent in this room already uses that name.')).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, 'Juno{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((c) => c.method === 'workers.rename').length).toBe(2);
  });

  it('disconnect asks first and says the agent can reconnect', async () => {
    const { api } = openRoster();
    await screen.findByText(/Says: pushing the transaction fix/);
    await userEvent.click(within(row('Cedar')).getByRole('button', { name: 'Actions for Cedar' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Disconnect…' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Cedar?' });
    expect(dialog.textContent).toMatch(/can reconnect/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(within(row('Cedar')).getByText('Disconnected')).toBeTruthy());
    expect(api.calls.find((c) => c.method === 'workers.disconnect')).toBeTruthy();
  });

  it('remove from room asks first and says its tasks go back to Accepted', async () => {
    const { api } = openRoster();
    await screen.findByText(/Says: pushing the transaction fix/);
    await userEvent.click(within(row('MapleRidge')).getByRole('button', { name: 'Actions for MapleRidge' }));
    await userEvent.click(screen.getByRole('menuitem', { name: /Remove from/ }));
    const dialog = screen.getByRole('dialog', { name: /Remove MapleRidge/ });
    expect(dialog.textContent).toMatch(/back to Accepted/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(api.calls.some((c) => c.method === 'workers.remove')).toBe(false);
  });

  it('shows why each agent was last woken, live, and its recent wakes on opening', async () => {
    const state = demoState();
    const juniper = state.agents.find((a) => a.name === 'Juniper')!;
    const mention: Wake = {
      at: at(80), roomId: juniper.roomId, messageNumber: 41, reason: 'explicit_mention', concern: null, taskNumber: null,
      from: 'Cedar', excerpt: '@Juniper the build is green', messages: 1,
    };
    juniper.lastWake = mention;
    const { api } = openRoster(state);
    await screen.findByText(/Says: pushing the transaction fix/);
    expect(within(row('Juniper')).getByText('Woken by a mention from Cedar')).toBeTruthy();
    // Cedar has never been woken: no line at all.
    expect(within(row('Cedar')).queryByText(/^Woken/)).toBeNull();

    // A person moves Juniper's task: the roster updates from the event, without reloading.
    const assigned: Wake = { ...mention, at: at(90), messageNumber: 44, reason: 'system_event', concern: 'assignee', taskNumber: 12, from: null, excerpt: 'task_12 was handed off from Cedar to @Juniper.', messages: 3 };
    state.wakes[juniper.sessionId] = [assigned, mention];
    const listCalls = api.calls.filter((c) => c.method === 'workers.list').length;
    act(() => api.emit({ type: 'worker.woken', place: 'local', roomId: juniper.roomId, sessionId: juniper.sessionId, wake: assigned }));
    expect(await within(row('Juniper')).findByText('Woken: task_12 was assigned to it (+2 more)')).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'workers.list').length).toBe(listCalls);

    await userEvent.click(within(row('Juniper')).getByText('Woken: task_12 was assigned to it (+2 more)'));
    const recent = await within(row('Juniper')).findByRole('list', { name: 'Recent wakes' });
    await waitFor(() => expect(within(recent).getAllByRole('listitem').map((li) => li.querySelector('span')?.textContent)).toEqual([
      'Woken: task_12 was assigned to it (+2 more)',
      'Woken by a mention from Cedar',
    ]));
    expect(within(recent).getByText('@Juniper the build is green')).toBeTruthy();
  });

  it('with no agents, points to Connect agents', async () => {
    openRoster(emptyState());
    expect(await screen.findByRole('heading', { name: 'No agents yet' })).toBeTruthy();
    await userEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Connect agents' }));
    expect(await screen.findByRole('heading', { name: 'Connect agents' })).toBeTruthy();
  });

  it('shows loading and error states', async () => {
    openRoster(demoState(), { 'workers.list': never });
    expect(await screen.findByText('Loading agents…')).toBeTruthy();
    cleanup();
    openRoster(demoState(), { 'workers.list': () => { throw appErrors.invalidInput('Could not read agents.'); } });
    expect(await screen.findByText('Could not read agents.')).toBeTruthy();
  });

  it("the room header shows online agents' chips, the most reachable first, saying whether a mention reaches each and what it says it is doing (what each state means on hover)", async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
    const chips = await screen.findByRole('list', { name: '3 agents online' });
    expect([...chips.querySelectorAll('.agent-chip-name')].map((e) => e.textContent)).toEqual(['Cedar', 'Juniper', 'MapleRidge']);
    const maple = within(chips).getByText('Idle, not listening').closest('.agent-chip')!;
    expect(maple.querySelector('.agent-chip-text')?.textContent).toBe('waiting for a decision on the admin UI');
    expect(maple.getAttribute('title')).toBe('MapleRidge — Idle, not listening: Connected but not waiting: a mention will not reach it until someone prompts it. Says: waiting for a decision on the admin UI.');
    expect(within(chips).queryByText('Willow')).toBeNull();
  });

  it('keeps a paused managed agent in the room header, reading Paused; an idle one reads Idle (issue 35)', async () => {
    const state = demoState();
    state.agents = [
      agent(DEMO_REPO_ROOM, 'github.com/acme/checkout-service', 'Birch', { online: false, reachability: 'managed_paused' }),
      agent(DEMO_REPO_ROOM, 'github.com/acme/checkout-service', 'Alder', { online: false, reachability: 'managed' }),
    ];
    renderApp({ state, route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
    const chips = await screen.findByRole('list', { name: '1 agent online, 1 paused' });
    const chip = (name: string) => within(chips).getByText(name).closest('.agent-chip')!;
    expect(chip('Alder').querySelector('.agent-chip-label')?.textContent).toBe('Idle');
    expect(chip('Birch').querySelector('.agent-chip-label')?.textContent).toBe('Paused');
    expect(chip('Birch').getAttribute('title')).toContain('no turn starts for it until you resume it');
  });

  it("a managed agent run on another machine of the team that waits for its owner's approval says so, in the roster and the room header", async () => {
    const state = demoState();
    const approvalWait = { person: 'ada', tool: 'Bash', since: at(5), text: 'Alder is waiting for ada to approve a command (Bash)' };
    state.agents = [agent(DEMO_REPO_ROOM, 'github.com/acme/checkout-service', 'Alder', { online: false, reachability: 'managed', machine: 'ada-laptop', statusText: 'reviewing the schema', approvalWait })];
    const { unmount } = openRoster(state);
    await waitFor(() => expect(row('Alder').querySelector('.agent-approval-wait')?.textContent).toBe('Alder is waiting for ada to approve a command (Bash). Only ada can allow or deny it, on ada-laptop.'));
    expect(within(row('Alder')).getByText('ada-laptop')).toBeTruthy();
    unmount();
    renderApp({ state, route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
    const chips = await screen.findByRole('list', { name: '1 agent online' });
    const chip = within(chips).getByText('Alder').closest('.agent-chip')!;
    // Its wait says more than its own status text, which it gives way to.
    expect(chip.querySelector('.agent-chip-text')?.textContent).toBe('Alder is waiting for ada to approve a command (Bash)');
    expect(chip.getAttribute('title')).toContain('Alder is waiting for ada to approve a command (Bash).');
  });

  it("a room's Agents tab shows only that room's agents", async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: 'github.com/acme/web-app', place: 'local' }, 'agents') });
    await waitFor(() => expect([...document.querySelectorAll('.agent-name')].map((e) => e.textContent)).toEqual(['MapleRidge']));
    expect(screen.queryByRole('combobox', { name: 'Room' })).toBeNull();
  });
});
