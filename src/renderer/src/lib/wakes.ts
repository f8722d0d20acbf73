// Why an agent was woken, in plain words ("Woken by a mention from Cedar"), from the
// routing reason the app recorded for the wait_for_messages result that woke it.
import type { Wake } from '../../../shared/types';

const CONCERN_WORDS: Record<NonNullable<Wake['concern']>, (task: string) => string> = {
  assignee: (task) => `${task} was assigned to it`,
  holder: (task) => `${task}, which it holds, changed`,
  reviewer: (task) => `${task}, which it reviews, changed`,
  proposer: (task) => `${task}, which it proposed, changed`,
  renamed: () => 'a person renamed it',
  removed: () => 'a person removed it from the room',
};

export function wakeReasonText(wake: Wake): string {
  const from = wake.from ?? 'the app';
  const task = wake.taskNumber === null ? 'a task' : `task_${wake.taskNumber}`;
  const text = (() => {
    switch (wake.reason) {
      case 'explicit_mention':
        return `Woken by a mention from ${from}`;
      case 'broadcast':
        return `Woken by a message to everyone from ${from}`;
      case 'reply_target':
        return `Woken by a reply from ${from}`;
      case 'thread_participant':
        return `Woken by ${from} in a thread it is in`;
      case 'task_owner':
        return `Woken: ${from} named a task it holds`;
      case 'unaddressed':
        return `Woken by a message from ${from}`;
      case 'talking_with':
        return `Woken: ${from} went on talking with it`;
      case 'follow_up':
        return `Woken: ${from} followed up on the task it holds`;
      case 'system_event':
        return `Woken: ${wake.concern ? CONCERN_WORDS[wake.concern](task) : 'a room event'}`;
    }
  })();
  return wake.messages > 1 ? `${text} (+${wake.messages - 1} more)` : text;
}
