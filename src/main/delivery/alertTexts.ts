// The words of the "Needs you" items the app raises (issue 14), and the prompt a person can
// paste into an agent's own chat to get it going again.
import { listOf } from '../../shared/words';
import { msgId, taskId } from '../domain/ids';

const minutes = (ms: number) => {
  const m = Math.round(ms / 60_000);
  return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${m} minute${m === 1 ? '' : 's'}`;
};
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
};

export function unansweredTexts(input: { agent: string; sender: string; senderIsPerson: boolean; number: number; text: string; roomName: string; afterMs: number }) {
  const whose = input.senderIsPerson ? 'your' : `${input.sender}'s`;
  return {
    title: `${input.agent} hasn't picked up ${whose} message`,
    body:
      `${input.sender} wrote to ${input.agent} (${msgId(input.number)}), and after ${minutes(input.afterMs)} it has not reached ${input.agent}: ` +
      `no LetAgents tool returned it yet.\n\n> ${excerpt(input.text)}`,
    prompt: `Read the LetAgents room ${input.roomName} and reply to ${msgId(input.number)}.`,
  };
}

export function idleTaskTexts(input: { agent: string; task: number; title: string; roomName: string; afterMs: number }) {
  return {
    title: `${input.agent} hasn't started on ${taskId(input.task)}`,
    body: `${taskId(input.task)} (${input.title}) was handed to ${input.agent}, and in ${minutes(input.afterMs)} since it has not called any LetAgents tool.`,
    prompt: `Read the LetAgents room ${input.roomName}: ${taskId(input.task)} (${input.title}) is yours. Start on it and post your progress there.`,
  };
}

export function loopTexts(input: { agents: readonly string[]; count: number; windowMs: number }) {
  const names = listOf(input.agents);
  return {
    title: `${names} were paused: they kept messaging each other`,
    body:
      `${names} posted ${input.count} messages within ${minutes(input.windowMs)} with no person involved, so the loop guard paused them: ` +
      'their messages to one another are still shown, but wake none of them. Resume them, or stop them.',
    event: `The loop guard paused ${names}: ${input.count} messages within ${minutes(input.windowMs)} with no person involved. Their messages to one another wake none of them until a person resumes them.`,
  };
}

export function budgetTexts(input: { roomName: string; used: number; budget: number }) {
  return {
    title: `${input.roomName} reached its daily token budget`,
    body:
      `The room's agents received about ${input.used.toLocaleString('en-US')} tokens from LetAgents tools today (budget ${input.budget.toLocaleString('en-US')}; ` +
      'tokens are estimated as bytes ÷ 4). Their reads get "budget reached" until midnight UTC, or until you raise or remove the budget.',
  };
}
