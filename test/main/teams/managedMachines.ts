// Two machines of a team on which machine A ("ada-laptop") can run a managed agent: the REAL
// Claude Code CLI on A's PATH against a fake model server of each test's own, with its own home
// and a project folder to work in; B is "bo-desktop". The fields are the current test's.
import { afterEach, beforeEach } from 'vitest';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { tempDir } from '../../support';
import { startFakeModel, type FakeModel } from '../../support/fakeModels';
import { CLI_BIN } from '../agents/managedApp';
import { twoMachinesPerTest, type TwoMachines, type TwoMachinesOptions } from './twoMachinesSetup';

export interface ManagedMachines {
  readonly machines: TwoMachines;
  readonly model: FakeModel;
  /** The agent's project folder on A. */
  readonly folder: string;
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
  const machines = twoMachinesPerTest({
    ...options,
    machines: () => ({
      a: { env: { ...model!.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` }, home, machineName: 'ada-laptop' },
      b: { machineName: 'bo-desktop' },
    }),
  });
  return {
    machines,
    get model() {
      return model!;
    },
    get folder() {
      return folder;
    },
  };
}
