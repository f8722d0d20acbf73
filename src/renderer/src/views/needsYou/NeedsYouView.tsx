// "Needs you": one queue across rooms, newest first, answered or dismissed in place. Focus
// that was in a finished item moves on to the next one (or the heading when none is left).
import { useEffect, useRef } from 'react';
import type { AlertAction, NeedsYouItem } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useAppData } from '../../app/appData';
import { LOCAL } from '../../lib/rooms';
import { roomRoute, useNavigation } from '../../app/navigation';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { useToast } from '../../components/Toasts';
import { NeedsYouCard } from './NeedsYouCard';
import { itemKey } from './useNeedsYouAnnouncements';
import { withUnblocking } from './unblocking';
import { NotifyOnPhone } from '../phone/NotifyOnPhone';

/** What the toast says after an action on an item the app raised. */
const ACTION_DONE: Readonly<Record<AlertAction, (item: NeedsYouItem) => string>> = {
  remind: (item) => `Reminded ${item.from}.`,
  handoff: () => 'Handed over.',
  resume: () => 'Resumed: they wake each other again.',
  stop: () => 'Told them to stop.',
  resume_agent: (item) => `${item.from} takes turns again.`,
};

export function NeedsYouView() {
  const api = useApi();
  const toast = useToast();
  const { needsYou, info } = useAppData();
  const phone = info.data?.host === 'phone';
  const { route, navigate } = useNavigation();
  const list = useRef<HTMLUListElement>(null);
  const wanted = route.view === 'needsYou' ? route.item : undefined;
  // A notification's link names an item: bring it into view once it is there.
  useEffect(() => {
    if (!wanted || !needsYou.data) return;
    const card = list.current?.querySelector<HTMLElement>(`[data-item="${CSS.escape(wanted)}"]`);
    if (!card) return;
    card.scrollIntoView({ block: 'start' });
    card.querySelector<HTMLElement>('button, textarea')?.focus();
  }, [wanted, needsYou.data]);
  const heading = useRef<HTMLHeadingElement>(null);
  /** The place of the item that has the focus: when that item leaves (answered here or elsewhere), focus moves on from there. */
  const focusedAt = useRef<number | null>(null);
  const remove = (item: NeedsYouItem) => needsYou.setData((old) => ({ items: old.items.filter((i) => itemKey(i) !== itemKey(item)) }));
  useEffect(() => {
    const at = focusedAt.current;
    const active = document.activeElement;
    if (at === null || (active && active !== document.body)) return;
    focusedAt.current = null;
    const cards = list.current?.children ?? [];
    const next = cards[Math.min(at, cards.length - 1)]?.querySelector<HTMLElement>('textarea, button');
    (next ?? heading.current)?.focus();
  }, [needsYou.data]);
  const onFocus = (event: React.FocusEvent) => {
    focusedAt.current = [...(list.current?.children ?? [])].findIndex((card) => card.contains(event.target));
  };
  // Focus moving elsewhere forgets the place; focus lost with its removed card (no next target) does not.
  const onBlur = (event: React.FocusEvent) => {
    if (event.relatedTarget && !list.current?.contains(event.relatedTarget)) focusedAt.current = null;
  };
  const open = (item: NeedsYouItem) => {
    const room = { roomId: item.ref.roomId, place: item.ref.place ?? LOCAL };
    if (item.ref.kind === 'task') navigate(roomRoute(room, 'board', { task: item.ref.number }));
    else navigate(roomRoute(room, 'chat', { threadRoot: item.threadRootNumber ?? undefined, focus: item.threadRootNumber ?? item.ref.number }));
  };

  const body = () => {
    if (needsYou.status === 'loading') return <Loading />;
    if (needsYou.status === 'error' && !needsYou.data) return <ErrorState message={needsYou.error} onRetry={needsYou.reload} />;
    const items = needsYou.data?.items ?? [];
    if (items.length === 0) {
      return (
        <EmptyState icon="inbox" title="Nothing needs you">
          When an agent asks a question, wants a decision or approval, mentions you, or a task waits in review or is blocked, it shows up here; so does a
          message or task an agent has not picked up, a loop the loop guard paused, and a used-up budget.
        </EmptyState>
      );
    }
    return (
      <ul className="needs-list" ref={list} onFocus={onFocus} onBlur={onBlur}>
        {withUnblocking(items).map(({ item, blocked }) => (
          <NeedsYouCard
            key={itemKey(item)}
            item={item}
            blocked={blocked}
            onAnswer={async (it, text) => {
              await api.call('needsYou.answer', { item: it.ref, text });
              toast(`Answer sent to ${it.from}.`);
              remove(it);
            }}
            onDismiss={async (it) => {
              await api.call('needsYou.dismiss', { item: it.ref });
              remove(it);
            }}
            onAct={async (it, action, toSessionId) => {
              const { removed } = await api.call('needsYou.act', { item: it.ref, action, ...(toSessionId ? { toSessionId } : {}) });
              toast(ACTION_DONE[action](it));
              if (removed) remove(it);
            }}
            onApprove={phone ? undefined : async (it, note) => {
              if (note.trim()) await api.call('needsYou.answer', { item: it.ref, text: note });
              const task = await api.call('tasks.move', { roomId: it.ref.roomId, place: it.ref.place, number: it.ref.number, to: 'done' });
              toast(`Approved: ${task.id} is Done.`);
              remove(it);
            }}
            onRequestChanges={phone ? undefined : async (it, note) => {
              await api.call('needsYou.answer', { item: it.ref, text: note });
              const task = await api.call('tasks.move', { roomId: it.ref.roomId, place: it.ref.place, number: it.ref.number, to: 'in_progress' });
              toast(`Changes requested: ${task.id} is back In progress.`);
              remove(it);
            }}
            onDecide={async (it, decision, note) => {
              const outcome = await api.call('approvals.decide', { number: it.approval!.number, decision, ...(note.trim() ? { note } : {}) });
              // The item stays, showing how the answer travels (its state comes with the queue).
              if (outcome.settled) toast(outcome.message);
              needsYou.reload();
              return outcome;
            }}
            confirmRisky={phone}
            onOpen={open}
          />
        ))}
      </ul>
    );
  };

  return (
    <section className="page" aria-labelledby="needs-title">
      <header className="page-header">
        <h1 id="needs-title" ref={heading} tabIndex={-1}>Needs you</h1>
        <p className="muted">Questions, decisions and reviews your agents are waiting on, across every room.</p>
        {phone && <NotifyOnPhone />}
      </header>
      {body()}
    </section>
  );
}
