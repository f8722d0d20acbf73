// Under a message: "Seen by Atlas, Birch · pushed to Juniper · waiting for Cedar" (issues 14, 26), live; a
// person's @all answered in turn reads "Aspen answered · Birch's turn, 1:12 left" (issue 34). Hovering or
// focusing it shows when each agent got it, and why the others have not (their reachability);
// Enter or a click keeps that list open. The room's chat provides the store (ReceiptsProvider).
import { createContext, useContext, useEffect, useId, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { REACHABILITY_WORDS } from '../../../../shared/model/workers';
import type { MessageReceipts } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useAppEvents, useReconnect } from '../../api/useAppEvents';
import { isEventOf, type RoomRef } from '../../lib/rooms';
import { formatClockSeconds } from '../../lib/time';
import { ReceiptStore } from './receiptStore';
import { turnDetail, turnsSummary } from './turnWords';

const ReceiptsContext = createContext<ReceiptStore | null>(null);

/** Keeps the receipts of the room's messages on screen fresh: receipt events, new agents, reachability. */
export function ReceiptsProvider({ room, children }: { room: RoomRef; children: ReactNode }) {
  const api = useApi();
  // One store per room (id and place), not per render's ref object.
  const { roomId, place } = room;
  const store = useMemo(() => new ReceiptStore(api, { roomId, place }), [api, roomId, place]);
  useEffect(() => () => store.close(), [store]);
  useAppEvents((event) => {
    // A managed agent paused or resumed (the event names no room): the receipts waiting for it say so.
    if (event.type === 'agent.changed') return store.changedAll();
    if (!isEventOf(event, room)) return;
    if (event.type === 'message.receipts') store.changed(event.first, event.last);
    else if (event.type === 'worker.changed' || event.type === 'worker.reachability') store.changedAll();
  });
  useReconnect(() => store.changedAll());
  return <ReceiptsContext.Provider value={store}>{children}</ReceiptsContext.Provider>;
}

const NO_STORE = { subscribe: () => () => undefined, get: () => undefined };

export function MessageReceiptsLine({ number }: { number: number }) {
  const store = useContext(ReceiptsContext);
  const source = store ?? NO_STORE;
  const receipts = useSyncExternalStore(
    (listener) => source.subscribe(number, listener),
    () => source.get(number),
  );
  if (!receipts || (receipts.seen.length === 0 && receipts.pushed.length === 0 && receipts.waiting.length === 0 && !receipts.noReply?.length && !receipts.turns)) return null;
  return <ReceiptsLine receipts={receipts} />;
}

export function receiptsSummary(receipts: MessageReceipts): string {
  const seen = receipts.seen.length > 0 ? `Seen by ${receipts.seen.map((s) => s.name).join(', ')}` : '';
  const pushed = receipts.pushed.length > 0 ? `pushed to ${receipts.pushed.map((p) => p.name).join(', ')}` : '';
  const waiting = receipts.waiting.length > 0 ? `waiting for ${receipts.waiting.map((w) => w.name).join(', ')}` : '';
  // Issue 34: "Birch read it and passed (said nothing)".
  const quiet = (receipts.noReply ?? []).map((n) => `${n.name} ${n.why}`).join(' · ');
  if (!seen && (pushed || waiting)) return [`Not seen yet: ${[pushed, waiting].filter(Boolean).join(' · ')}`, quiet].filter(Boolean).join(' · ');
  return [seen, pushed, waiting, quiet].filter(Boolean).join(' · ');
}

/** Now, every second while a turn's time runs out (issue 34: "Birch's turn, 1:12 left"); fixed otherwise. */
function useSecondsWhile(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

function ReceiptsLine({ receipts }: { receipts: MessageReceipts }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const turns = receipts.turns;
  const now = useSecondsWhile(!!turns?.turnEndsAt);
  const all = turns ? turns.order.every((t) => t.state !== 'turn' && t.state !== 'waiting') : receipts.waiting.length === 0;
  return (
    <div className={open ? 'receipts receipts-open' : 'receipts'}>
      <button type="button" className={all ? 'receipts-summary receipts-all' : 'receipts-summary'} aria-expanded={open} aria-describedby={id} onClick={() => setOpen((o) => !o)}>
        {turns ? turnsSummary(turns, now) : receiptsSummary(receipts)}
      </button>
      {receipts.waiting.map((w) => w.pausedAgentId && <ResumePaused key={w.sessionId} name={w.name} agentId={w.pausedAgentId} named={receipts.waiting.length > 1} />)}
      <div role="tooltip" id={id} className="receipts-times">
        {turns && <span>One agent at a time, in this order:</span>}
        {turns?.order.map((t, i) => (
          <span key={`turn-${t.name}`}>{turnDetail(t, i + 1, turns.turnEndsAt, formatClockSeconds)}</span>
        ))}
        {receipts.seen.map((s) => (
          <span key={s.sessionId}>
            {s.name}: got it {s.exact ? 'at' : 'by'} <time dateTime={s.at}>{formatClockSeconds(s.at)}</time>
          </span>
        ))}
        {receipts.pushed.map((p) => (
          <span key={p.sessionId}>
            {p.name}: pushed into its session at <time dateTime={p.at}>{formatClockSeconds(p.at)}</time>, not read yet
          </span>
        ))}
        {receipts.waiting.map((w) => (
          <span key={w.sessionId}>
            {w.name}: not yet. {REACHABILITY_WORDS[w.reachability].label}: {REACHABILITY_WORDS[w.reachability].meaning}
          </span>
        ))}
      </div>
    </div>
  );
}

/**
 * "· paused: Resume" beside a receipt that waits for a paused managed agent (issue 35): one
 * click and it takes its turn. `named`: several agents are waiting, so it says which one.
 */
function ResumePaused({ name, agentId, named }: { name: string; agentId: string; named: boolean }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const resume = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await api.call('agents.resume', { agentId });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="receipts-paused">
      {' · '}
      {named ? `${name} paused` : 'paused'}:{' '}
      <button type="button" className="link-button" aria-label={`Resume ${name}`} disabled={busy} onClick={() => void resume()}>
        Resume
      </button>
      {problem && <span role="alert" className="form-error"> {problem}</span>}
    </span>
  );
}
