// Where a paired phone's page opens: Needs you first, or the item or page its link names.
import type { PhoneHash } from '../../../../shared/phoneLinks';
import type { Route } from '../../app/navigation';
import { itemKey } from '../needsYou/useNeedsYouAnnouncements';

export function phoneRoute(opens: PhoneHash): Route {
  if (opens.open === 'agents') return { view: 'agents' };
  if (opens.open === 'item') return { view: 'needsYou', item: itemKey({ ref: opens.ref }) };
  return { view: 'needsYou' };
}
