// Whom a person's message wakes, in words: the composer's "→ Cedar" while typing and the line
// under a sent message. The decision is the server's (messages.preview, and the one stored with
// the message); this only words it.
import type { WakePreview } from '../../../shared/types';

export function wakeText(preview: WakePreview): string {
  switch (preview.to) {
    case 'everyone':
      if (preview.why === 'in_turn') {
        const agents = `${preview.count} ${preview.count === 1 ? 'agent' : 'agents'}`;
        return preview.atOnce?.length ? `→ ${preview.atOnce.join(', ')} now, then the others one at a time (${agents})` : `→ everyone, one at a time (${agents})`;
      }
      return preview.count === 0 ? '→ no agents in this room' : `→ everyone (${preview.count} ${preview.count === 1 ? 'agent' : 'agents'})`;
    case 'agents':
      return `→ ${preview.names.join(', ')}`;
    case 'nobody':
      return '→ nobody';
    case 'thread':
      return "→ the thread's agents";
  }
}

/** Why, in a few words, for the title of the line. */
export function wakeWhy(preview: WakePreview): string {
  switch (preview.why) {
    case 'small_room': return 'A room of one or two agents: every agent gets a message that names nobody.';
    case 'partner': return 'You were just talking with this agent.';
    case 'follow_up': return 'A short follow-up goes to the agent holding the task.';
    case 'nobody': return 'This message names nobody: mention an agent (@name) or @all.';
    case 'broadcast': return 'A message to everyone.';
    case 'in_turn': return 'A message to everyone, answered one agent at a time: each sees the answers before it and may pass (the room\'s "Reply to @all" setting).';
    case 'mention': return 'The agents mentioned.';
    default: return '';
  }
}
