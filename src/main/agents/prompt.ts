// The prompt of one managed turn: who the agent is in LetAgents (its worker_id, registered
// by the app beforehand, and its room), the person's standing instructions, and why it
// has this turn. It goes to the provider on stdin, never on its command line.
import type { AgentWorkspace } from '../../shared/model/managedAgents';
import type { EarlierAnswer } from '../domain/activation/earlierAnswers';
import type { Trigger } from './types';

/** Triggering messages quoted in full up to this many characters each; the agent reads the rest. */
const QUOTE_CHARS = 4_000;
export const MAX_QUOTED = 20;

export interface TurnPromptInput {
  readonly name: string;
  readonly workerId: string;
  readonly roomId: string;
  readonly roomName: string;
  readonly instructions: string;
  readonly triggers: readonly Trigger[];
  /** Where it works (its own worktree and branch, or the folder itself). */
  readonly workspace?: AgentWorkspace;
}

export function buildTurnPrompt(input: TurnPromptInput): string {
  const lines = [
    `You are ${input.name}, an AI coding agent that LetAgents Desktop runs in this folder for the room "${input.roomName}".`,
    '',
    `Your LetAgents identity: worker_id "${input.workerId}" in room_id "${input.roomId}".`,
    `First call register_agent_session with worker_id "${input.workerId}" and room_id "${input.roomId}", ` +
      'then pass that worker_id on every LetAgents tool call. Never share it.',
  ];
  if (input.workspace?.kind === 'worktree') {
    lines.push(
      '',
      `You work in your own git worktree (${input.workspace.path}) on the branch ${input.workspace.branch}, started from ${input.workspace.base}. ` +
        'Other agents work on branches of their own; the person reviews your changes and merges them. Commit your work on this branch when a piece is done.',
    );
  }
  if (input.instructions.trim() !== '') {
    lines.push('', 'Standing instructions from the person who runs you:', input.instructions.trim());
  }
  lines.push('', 'Why you have this turn:', ...describeTriggers(input.triggers).map((t) => `- ${t}`));
  lines.push(
    '',
    'Answer in the room through the LetAgents tools (send_message, or send_thread_message for a thread) when someone expects a reply; ' +
      'read_messages and get_board give you more context, and the task tools let you claim and move work.',
    'Do not call wait_for_messages: this turn ends when you finish, and LetAgents gives you another turn when something needs you.',
  );
  return `${lines.join('\n')}\n`;
}

/** Each trigger in plain words, for the prompt and (shortened) for the activity log. */
export function describeTriggers(triggers: readonly Trigger[]): string[] {
  const quoted = triggers.filter((t) => t.kind === 'message').slice(-MAX_QUOTED);
  const omitted = triggers.filter((t) => t.kind === 'message').length - quoted.length;
  const out: string[] = [];
  if (omitted > 0) out.push(`${omitted} earlier messages (read them with read_messages).`);
  for (const trigger of triggers) {
    if (trigger.kind === 'message') {
      if (!quoted.includes(trigger)) continue;
      out.push(`msg_${trigger.number} from ${trigger.sender}: ${quote(trigger.text)}`);
      if (trigger.earlier) out.push(...inTurn(trigger.number, trigger.earlier));
    } else if (trigger.kind === 'task') {
      out.push(`task_${trigger.number} ("${trigger.title}") was assigned or handed to you.`);
    } else if (trigger.kind === 'automation') {
      // The person's own instruction: in full (the agent has nowhere else to read it).
      out.push(`The automation "${trigger.name}" runs (${trigger.cause}). Its instructions: ${trigger.instructions.trim()}`);
    } else {
      out.push(`${trigger.by} asked you to take a turn now: check the room and the board for anything that needs you.`);
    }
  }
  return out;
}

/**
 * An @all answered in turn (issue 34): the answers that came before this agent's turn, marked
 * as earlier answers (already bounded); saying nothing is a fine way to end this turn.
 */
function inTurn(number: number, earlier: readonly EarlierAnswer[]): string[] {
  return [
    `  It is your turn to answer msg_${number}: the room's agents answer it one at a time.` +
      (earlier.length === 0 ? ' No agent has answered it yet.' : ' Earlier answers to it, from the other agents:'),
    ...earlier.map((a) => `  - earlier answer msg_${a.number} from ${a.from}: ${JSON.stringify(a.text)}`),
    '  Saying nothing is fine when you have nothing to add: then end your turn without posting in the room.',
  ];
}

function quote(text: string, max = QUOTE_CHARS): string {
  const chars = Array.from(text);
  const shown = chars.length <= max ? text : `${chars.slice(0, max).join('')}… (cut; read the whole message with read_messages)`;
  return JSON.stringify(shown);
}
