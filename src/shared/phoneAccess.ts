// What a paired phone may do (issue 37), and nothing more: read rooms and Needs you, post as the
// person, answer approvals and Needs-you items, pause/resume/stop managed agents and pause/resume
// automations. Every other
// method of the contract — settings, teams, Connect agents, sign-in, adding agents, folders,
// exports, and any method added later — is refused by the server for a device key, whatever the
// page asks.
import type { MethodName } from './bridge';
import type { AppEventType } from './events';

export const PHONE_METHODS = [
  'rooms.list', 'rooms.markRead',
  'messages.timeline', 'messages.thread', 'messages.send',
  'tasks.board', 'tasks.get',
  'workers.list',
  'delivery.receipts', 'delivery.room',
  'needsYou.list', 'needsYou.answer', 'needsYou.dismiss', 'needsYou.act',
  'approvals.decide',
  'agents.list', 'agents.pause', 'agents.resume', 'agents.stop',
  'automations.list', 'automations.pause', 'automations.resume',
  'app.info',
] as const satisfies readonly MethodName[];

export type PhoneMethod = (typeof PHONE_METHODS)[number];

export function isPhoneMethod(method: string): method is PhoneMethod {
  return (PHONE_METHODS as readonly string[]).includes(method);
}

/** The refusal a phone gets for anything else. */
export const NOT_ON_PHONE = 'not_allowed_on_phone';

/**
 * Which events reach a phone: what its views refresh on. Every event type must be decided here
 * (a new one fails the type check until it is).
 */
export const PHONE_EVENTS: Readonly<Record<AppEventType, boolean>> = {
  'message.created': true,
  'task.changed': true,
  'worker.changed': true,
  'worker.reachability': true,
  'message.receipts': true,
  'meter.changed': true,
  'needsYou.changed': true,
  'room.changed': true,
  'agent.changed': true,
  'automation.changed': true,
  'place.reconnected': true,
  // What a phone cannot open: wakes, knowledge, activity logs, sign-in, teams, the desktop shell.
  'worker.woken': false,
  'knowledge.changed': false,
  'agent.activity': false,
  'auth.changed': false,
  'teams.changed': false,
  'phone.changed': false,
  'app.open': false,
};
