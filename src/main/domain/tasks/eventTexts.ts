// Texts of the system events that task actions post (data-model.md §3.3). Agents are
// named by their display name, people by their label.
import { actorShortName, type Actor } from '../actor';
import { taskId } from '../ids';

const who = actorShortName;

export const taskEventText = {
  created: (actor: Actor, n: number, title: string, status: 'proposed' | 'accepted') =>
    `${who(actor)} ${status === 'proposed' ? 'proposed' : 'added'} ${taskId(n)}: ${title}`,
  claimed: (actor: Actor, n: number) => `${who(actor)} claimed ${taskId(n)}.`,
  released: (actor: Actor, n: number) => `${who(actor)} released ${taskId(n)}.`,
  handedOff: (n: number, fromName: string, toName: string) => `${taskId(n)} was handed off from ${fromName} to @${toName}.`,
  moved: (n: number, from: string, to: string, actor: Actor) => `${taskId(n)} moved from ${from} to ${to} by ${who(actor)}.`,
  /** Ours: an edit of pr_url or workflow_artifacts without a status change. */
  updated: (actor: Actor, n: number) => `${who(actor)} updated ${taskId(n)}.`,
  reviewing: (actor: Actor, n: number) => `${who(actor)} is reviewing ${taskId(n)}.`,
  releasedReview: (actor: Actor, n: number) => `${who(actor)} released review of ${taskId(n)}.`,
} as const;
