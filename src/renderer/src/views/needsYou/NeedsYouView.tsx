// "Needs you": one queue across rooms, newest first, answered or dismissed in place.
import type { NeedsYouItem } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useAppData } from '../../app/appData';
import { roomRoute, useNavigation } from '../../app/navigation';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { useToast } from '../../components/Toasts';
import { NeedsYouCard } from './NeedsYouCard';

export function NeedsYouView() {
  const api = useApi();
  const toast = useToast();
  const { needsYou } = useAppData();
  const { navigate } = useNavigation();
  const remove = (item: NeedsYouItem) =>
    needsYou.setData((old) => ({ items: old.items.filter((i) => !(i.ref.kind === item.ref.kind && i.ref.roomId === item.ref.roomId && i.ref.number === item.ref.number)) }));
  const open = (item: NeedsYouItem) => {
    if (item.ref.kind === 'task') navigate(roomRoute(item.ref.roomId, 'board', { task: item.ref.number }));
    else navigate(roomRoute(item.ref.roomId, 'chat', { threadRoot: item.threadRootNumber ?? undefined, focus: item.threadRootNumber ?? item.ref.number }));
  };

  const body = () => {
    if (needsYou.status === 'loading') return <Loading />;
    if (needsYou.status === 'error' && !needsYou.data) return <ErrorState message={needsYou.error} onRetry={needsYou.reload} />;
    const items = needsYou.data?.items ?? [];
    if (items.length === 0) {
      return (
        <EmptyState icon="inbox" title="Nothing needs you">
          When an agent asks a question, wants a decision or approval, mentions you, or a task waits in review or is blocked, it shows up here.
        </EmptyState>
      );
    }
    return (
      <ul className="needs-list">
        {items.map((item) => (
          <NeedsYouCard
            key={`${item.ref.kind}:${item.ref.roomId}:${item.ref.number}`}
            item={item}
            onAnswer={async (it, text) => {
              await api.call('needsYou.answer', { item: it.ref, text });
              toast(`Answer sent to ${it.from}.`);
              remove(it);
            }}
            onDismiss={async (it) => {
              await api.call('needsYou.dismiss', { item: it.ref });
              remove(it);
            }}
            onOpen={open}
          />
        ))}
      </ul>
    );
  };

  return (
    <section className="page" aria-labelledby="needs-title">
      <header className="page-header">
        <h1 id="needs-title">Needs you</h1>
        <p className="muted">Questions, decisions and reviews your agents are waiting on, across every room.</p>
      </header>
      {body()}
    </section>
  );
}
