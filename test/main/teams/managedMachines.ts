// Two machines of a team on which machine A ("ada-laptop") can run a managed agent: the REAL
// Claude Code CLI on A's PATH against a fake model server of each test's own, with its own home
// and a project folder to work in; B is "bo-desktop". The fields are the current test's. A room's
// roster as a machine's window holds it.
import { afterEach, beforeEach } from 'vitest';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { eventsForUi } from '../../../src/main/api/events';
import type { AgentSession } from '../../../src/shared/model/workers';
import type { AppEvent } from '../../../src/shared/events';
import { tempDir } from '../../support';
import { appTeamUrl } from '../../support/place';
import { inProcessMachine, TEAM, type InProcessMachine } from '../../support/teamMachines';
import { startFakeModel, type FakeModel } from '../../support/fakeModels';
import { CLI_BIN } from '../agents/managedApp';
import { machineApi, twoMachinesPerTest, type TwoMachines, type TwoMachinesOptions } from './twoMachinesSetup';

export interface ManagedMachines {
  readonly machines: TwoMachines;
  readonly model: FakeModel;
  /** The agent's project folder on A. */
  readonly folder: string;
  /** Closes A, runs `meanwhile`, and starts A's app again on its data folder (LISTEN set-up); the caller closes the new one. */
  startAgainA(meanwhile: () => Promise<void>): Promise<InProcessMachine>;
}

/** Installs the hooks (call it inside the describe); `polling` as twoMachinesPerTest's. */
export function managedMachinesPerTest(options: Pick<TwoMachinesOptions, 'polling'> = {}): ManagedMachines {
  let model: FakeModel | undefined;
  let home = '';
  let folder = '';
  // Each test's own model, home and folder (a test's temporary folders go with it); before the machines, which use them.
  beforeEach(async () => {
    home = tempDir('la-team-managed-home-');
    model = await startFakeModel('claude_code', home);
    folder = join(tempDir('la-team-managed-work-'), 'project');
    mkdirSync(folder, { recursive: true });
  });
  afterEach(async () => {
    await model?.close();
  });
  const aOptions = () => ({ env: { ...model!.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` }, home, machineName: 'ada-laptop' });
  const machines = twoMachinesPerTest({ ...options, machines: () => ({ a: aOptions(), b: { machineName: 'bo-desktop' } }) });
  return {
    machines,
    async startAgainA(meanwhile) {
      await machines.a.close();
      await meanwhile();
      return inProcessMachine('A', await appTeamUrl(machines.url, machines.cluster), { ...aOptions(), dataDir: machines.a.dataDir });
    },
    get model() {
      return model!;
    },
    get folder() {
      return folder;
    },
  };
}

export type Member = Pick<AgentSession, 'name' | 'machine' | 'reachability' | 'ended' | 'approvalWait'>;

/**
 * The team room's roster as `machine`'s window holds it: loaded once, then again on each event the
 * window's roster reloads on (useQuery: the room's worker.changed, or the team's place.reconnected).
 */
export function rosterWindow(machine: InProcessMachine, roomId: string) {
  let members: Member[] = [];
  let loads = 0;
  const load = async () => {
    const n = ++loads;
    const fresh = await machineApi<Member[]>(machine, 'workers.list', { roomId, place: TEAM });
    if (n === loads) members = fresh;
  };
  const reloadsOn = (e: AppEvent) =>
    (e.type === 'worker.changed' && e.roomId === roomId && e.place === TEAM) || (e.type === 'place.reconnected' && e.place === TEAM);
  const stop = eventsForUi(machine.app)((event) => void (reloadsOn(event) && load()));
  return {
    ready: load,
    member: (name: string) => members.find((m) => m.name === name),
    stop,
  };
}
