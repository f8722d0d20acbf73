// One page of the phone's tabs (issue 37): its heading, then a list once loaded, or what stands
// in its way (loading, an error with Retry, nothing yet). Rooms, Agents and Automations use it.
import type { ReactNode } from 'react';
import type { Query } from '../../api/useQuery';
import type { IconName } from '../../components/Icon';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';

interface PhonePageProps<T> {
  readonly id: string;
  readonly title: string;
  readonly query: Query<T[]>;
  /** "Loading agents…". */
  readonly loading: string;
  readonly empty: { icon: IconName; title: string; text: string };
  /** The list, given the loaded items (at least one); labelled by the page's heading. */
  readonly children: (items: T[]) => ReactNode;
}

export function PhonePage<T>({ id, title, query, loading, empty, children }: PhonePageProps<T>) {
  const body = () => {
    if (query.status === 'loading') return <Loading label={loading} />;
    if (query.status === 'error' && !query.data) return <ErrorState message={query.error} onRetry={query.reload} />;
    const items = query.data ?? [];
    if (items.length === 0) return <EmptyState icon={empty.icon} title={empty.title}>{empty.text}</EmptyState>;
    return (
      <ul className="phone-list" aria-labelledby={id}>
        {children(items)}
      </ul>
    );
  };
  return (
    <section className="page phone-page" aria-labelledby={id}>
      <header className="page-header">
        <h1 id={id}>{title}</h1>
      </header>
      {body()}
    </section>
  );
}
