// The room's reachable agents in the header (online, or managed: the app starts them, or paused), the
// ones a mention reaches soonest first: name, whether a mention reaches it now (issue 14), and
// what it says it is doing (its own status text, or that it waits for its owner's approval). Hover
// says what each state means.
// Short of room, the status text goes first, then the state label; names stay whole (issue 27).
import { useLayoutEffect, useRef, useState } from 'react';
import { REACHABILITY_WORDS } from '../../../../shared/model/workers';
import type { AgentSession } from '../../../../shared/types';
import { AgentChip } from '../../components/AgentChip';
import { agentSaysText } from '../../../../shared/model/agentState';
import { ReachabilityDot } from '../delivery/Reachability';
import { sortAgents } from '../agents/AgentsRoster';
import { useCoreReachable } from '../../api/useAppEvents';

const MAX_CHIPS = 3;

/** 0: everything; 1: without status text; 2: names (and dots) only. */
type Detail = 0 | 1 | 2;
const DETAIL_CLASS = ['presence', 'presence presence-no-text', 'presence presence-names'];

/** The chips take more than the list's width (they sit at its end, so scrollWidth does not see it). */
function overflows(list: HTMLElement): boolean {
  const first = list.firstElementChild;
  const last = list.lastElementChild;
  if (!first || !last) return false;
  return last.getBoundingClientRect().right - first.getBoundingClientRect().left > list.clientWidth + 1;
}

/** Drops detail while the chips do not fit; starts again from everything when the header resizes. */
function useFittingDetail(key: string) {
  const list = useRef<HTMLUListElement>(null);
  const [detail, setDetail] = useState<Detail>(0);
  useLayoutEffect(() => {
    const el = list.current;
    if (el && detail < 2 && overflows(el)) setDetail((detail + 1) as Detail);
  });
  useLayoutEffect(() => {
    const header = list.current?.parentElement;
    if (!header) return;
    let width = header.clientWidth;
    const observer = new ResizeObserver(() => {
      if (header.clientWidth === width) return;
      width = header.clientWidth;
      setDetail(0);
    });
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => setDetail(0), [key]);
  return { list, className: DETAIL_CLASS[detail] };
}

/** Managed agents stay in the header while paused (issue 35): a mention to them waits for Resume. */
const inHeader = (agent: AgentSession) => !agent.ended && (agent.online || agent.reachability === 'managed' || agent.reachability === 'managed_paused');

const NOT_KNOWN = { label: 'Not known now', meaning: 'LetAgents is not connected, so whether a mention reaches it is not known until it is back.' };

export function PresenceChips({ agents, onShowAll }: { agents: AgentSession[]; onShowAll: () => void }) {
  const reachable = useCoreReachable();
  const online = sortAgents(agents.filter(inHeader));
  const shown = online.slice(0, MAX_CHIPS);
  const fit = useFittingDetail(`${reachable}\u0001${shown.map((a) => `${a.name}\u0000${a.reachability}\u0000${a.statusText}\u0000${a.approvalWait?.text ?? ''}`).join('\u0001')}`);
  if (online.length === 0) return <span className="presence-empty">No agents online</span>;
  const paused = online.filter((a) => a.reachability === 'managed_paused').length;
  const live = online.length - paused;
  const label = `${live} ${live === 1 ? 'agent' : 'agents'} online${paused > 0 ? `, ${paused} paused` : ''}`;
  return (
    <ul ref={fit.list} className={fit.className} aria-label={label}>
      {shown.map((agent) => {
        // While LetAgents is away, nobody can say who listens: the last state would be a guess.
        const words = reachable ? REACHABILITY_WORDS[agent.reachability] : NOT_KNOWN;
        // Waiting for its owner's approval (a team room's agent run elsewhere) says more than its own status.
        const says = agent.approvalWait?.text ?? agentSaysText(agent.statusText);
        return (
          <li key={agent.sessionId}>
            <AgentChip
              name={agent.name}
              dot={reachable ? <ReachabilityDot reachability={agent.reachability} /> : <span className="reach-dot reach-unknown" aria-hidden="true" />}
              label={words.label}
              statusText={agent.approvalWait?.text ?? (agent.statusText || undefined)}
              title={`${agent.name} — ${words.label}: ${words.meaning}${says ? ` ${says}.` : ''}`}
            />
          </li>
        );
      })}
      {online.length > MAX_CHIPS && (
        <li>
          <button type="button" className="link-button presence-more" onClick={onShowAll}>
            +{online.length - MAX_CHIPS} more
          </button>
        </li>
      )}
    </ul>
  );
}
