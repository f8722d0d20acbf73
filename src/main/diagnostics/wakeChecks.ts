// Agents a mention cannot wake (issue 26): connected, registered, sitting at their prompt, with
// neither a Claude Code channel nor a Codex queue that resumes them. `doctor` asks the running
// app for its roster (workers.list, over the agent socket) and names each, with why and the way
// out; the app's own diagnostics run the same check on its roster.
import { CANNOT_WAKE, CLAUDE_CHANNEL_COMMAND, type AgentSession, type WakePath } from '../../shared/model/workers';
import type { DoctorCheck } from './check';

export const WAKE_CHECK_TITLE = 'Agents a mention cannot wake';

const CLAUDE_CODE = 'Claude Code';

type Unwakeable = Extract<WakePath, 'next_call' | 'codex_no_daemon' | 'codex_unknown_thread'>;

const WHY: Readonly<Record<Unwakeable, string>> = {
  next_call: 'no channel; mentions reach it only when it next calls a tool',
  codex_no_daemon: 'no Codex daemon resumes its session; mentions wait in its Codex queue until it next runs',
  codex_unknown_thread: 'its Codex session has not named its thread yet; mentions reach it only when it next calls a tool',
};

/**
 * Claude Code at its prompt: the channel flag, which needs a claude.ai sign-in (channels refuse
 * an API key), or else a managed agent, which a mention always reaches (issue 35: the flag was
 * the only fix, a dead end for an API-key user).
 */
const CLAUDE_CODE_FIX =
  `Start Claude Code with \`${CLAUDE_CHANNEL_COMMAND}\` (a claude.ai sign-in is needed). ` +
  'Signed in with an API key (channels refuse one)? Let LetAgents run it as a managed agent instead: Agents → Add agent, or `letagents-desktop agent add`; a mention then starts its turn.';

/** Connected agents at their prompt that nothing wakes, in roster order. */
export function unwakeableAgents(agents: readonly AgentSession[]): AgentSession[] {
  return agents.filter((a) => a.online && !a.ended && CANNOT_WAKE.has(a.wakePath));
}

/** "Juniper (Cursor) in room acme/widget: no channel; mentions reach it only when it next calls a tool" */
export function unwakeableWords(agent: AgentSession): string {
  const client = agent.ide ? ` (${agent.ide})` : '';
  const why = agent.wakePath === 'next_call' && agent.ide === CLAUDE_CODE ? `started without the channel flag; ${WHY.next_call.replace('no channel; ', '')}` : WHY[agent.wakePath as Unwakeable];
  return `${agent.name}${client} in room ${agent.roomName}: ${why}`;
}

/** What makes these agents wakeable, each way once. */
function fixesFor(agents: readonly AgentSession[]): string[] {
  const fixes = new Set<string>();
  for (const agent of agents) {
    if (agent.wakePath === 'codex_no_daemon') fixes.add('Start the Codex daemon: `codex app-server daemon start`.');
    else if (agent.wakePath === 'next_call' && agent.ide === CLAUDE_CODE) fixes.add(CLAUDE_CODE_FIX);
    else if (agent.wakePath === 'next_call') fixes.add('An agent without a channel is woken only inside wait_for_messages: ask it to wait for messages when it is idle.');
  }
  return [...fixes];
}

/** The check over the roster `list` gives (every room of every place the app reads). */
export function wakeCheck(list: () => Promise<readonly AgentSession[]>): DoctorCheck {
  return {
    title: WAKE_CHECK_TITLE,
    async run() {
      const agents = await list();
      const connected = agents.filter((a) => a.online && !a.ended).length;
      const stuck = unwakeableAgents(agents);
      if (stuck.length === 0) {
        return { status: 'ok', summary: connected === 0 ? 'No agent is connected.' : `None: a mention reaches each of the ${connected} connected agent${connected === 1 ? '' : 's'}.` };
      }
      const fixes = fixesFor(stuck);
      return {
        status: 'note',
        summary: `${stuck.map(unwakeableWords).join('; ')}.`,
        ...(fixes.length > 0 ? { fix: fixes.join(' ') } : {}),
      };
    },
  };
}
