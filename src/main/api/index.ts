// The app API over the app core: one implementation per contract method (by domain in
// ./methods), for the one dispatcher both bridges use, and the UI's event feed.
import type { AppParts } from './appParts';
import { createApiContext, type ApiCaller, type ApiHost } from './context';
import type { ApiImplementation } from './dispatcher';
import { agentMethods } from './methods/agents';
import { appMethods } from './methods/app';
import { approvalMethods } from './methods/approvals';
import { authMethods } from './methods/auth';
import { automationMethods } from './methods/automations';
import { deliveryMethods } from './methods/delivery';
import { memoryMethods } from './methods/memory';
import { messageMethods } from './methods/messages';
import { needsYouMethods } from './methods/needsYou';
import { notificationMethods } from './methods/notifications';
import { phoneMethods } from './methods/phone';
import { roomMethods } from './methods/rooms';
import { settingsMethods } from './methods/settings';
import { setupMethods } from './methods/setup';
import { taskMethods } from './methods/tasks';
import { teamMethods } from './methods/teams';
import { workerMethods } from './methods/workers';

export type { ApiCaller, ApiHost } from './context';
export type { PhoneControl } from './phoneControl';
export { eventsForUi, toUiEvents, uiEventsSettled, type UiListener, type UiSubscribe } from './events';
export { createDispatcher, type ApiImplementation, type Dispatch } from './dispatcher';
export { emitUiSignal } from './uiSignals';

/** The implementation for one caller (default: the person at this computer). */
export function createApiImplementation(app: AppParts, host: ApiHost = {}, caller?: ApiCaller): ApiImplementation {
  const ctx = createApiContext(app, host, caller);
  return {
    ...roomMethods(ctx),
    ...messageMethods(ctx),
    ...taskMethods(ctx),
    ...workerMethods(ctx),
    ...agentMethods(ctx),
    ...automationMethods(ctx),
    ...needsYouMethods(ctx),
    ...approvalMethods(ctx),
    ...deliveryMethods(ctx),
    ...memoryMethods(ctx),
    ...authMethods(ctx),
    ...setupMethods(ctx),
    ...settingsMethods(ctx),
    ...teamMethods(ctx),
    ...phoneMethods(ctx),
    ...notificationMethods(ctx),
    ...appMethods(ctx),
  };
}
