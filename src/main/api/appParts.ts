// The parts of the app the API works with. The API depends on this interface, not on the
// app module that builds it (app.ts composes the API, so an import back would be a circle):
// `App` has every part named here.
import type { ManagedAgents } from '../agents/managedAgents';
import type { Automations } from '../automations/automations';
import type { AuthService } from '../auth/authService';
import type { GitHubData } from '../auth/githubData';
import type { Core } from '../core';
import type { McpHub } from '../mcp/hub';
import type { SetupService } from '../setup/setupService';
import type { Places } from '../store/places';
import type { Teams } from '../teams';
import type { NotifySettings } from '../notify/notifySettings';

export interface AppParts {
  readonly core: Pick<Core, 'store' | 'bus' | 'dataDir'>;
  readonly auth: AuthService;
  readonly githubData: GitHubData;
  /** Agent connections: who is online, their wakes, delivery (receipts, reachability, meter, loop guard). */
  readonly hub: Pick<McpHub, 'services' | 'delivery' | 'wakes' | 'bindings' | 'isOnline' | 'endSessionByPerson' | 'push'>;
  readonly setup: SetupService;
  readonly agents: ManagedAgents;
  readonly automations: Automations;
  readonly teams: Teams;
  /** Where rooms live: this computer and the teams. */
  readonly places: Places;
  /** Where notifications go and which (issue 37). */
  readonly notifications: NotifySettings;
  readonly version: string;
}
