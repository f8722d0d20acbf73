// Under the room header (issue 14): why agents stopped waking each other (the loop guard's
// pause, with Resume and Stop), and a room over its daily token budget.
import type { RoomDelivery } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import type { RoomRef } from '../../lib/rooms';
import { listOf } from '../../../../shared/words';

export function RoomDeliveryBar({ room, delivery, onBudget }: { room: RoomRef; delivery: RoomDelivery; onBudget: () => void }) {
  const api = useApi();
  const toast = useToast();
  const loop = delivery.loop;
  const act = (action: 'resume' | 'stop') =>
    loop?.alertNumber &&
    api.call('needsYou.act', { item: { kind: 'alert', ...room, number: loop.alertNumber }, action }).then(
      () => toast(action === 'resume' ? `${listOf(loop.agents)} can wake each other again.` : `${listOf(loop.agents)} were told to stop.`),
      (error: unknown) => toast(errorMessage(error), 'error'),
    );
  if (!loop && !delivery.budgetReached) return null;
  return (
    <div className="delivery-bar">
      {loop && (
        <div className="banner banner-warn" role="status">
          <Icon name="alert" size={16} />
          <p>
            <strong>The loop guard paused {listOf(loop.agents)}.</strong> They kept messaging each other with no person involved, so their messages to one another wake none of them.
          </p>
          {loop.alertNumber !== null && (
            <span className="banner-actions">
              <button type="button" className="btn btn-small" onClick={() => void act('resume')}>Resume them</button>
              <button type="button" className="btn btn-small" onClick={() => void act('stop')}>Stop them</button>
            </span>
          )}
        </div>
      )}
      {delivery.budgetReached && (
        <div className="banner banner-warn" role="status">
          <Icon name="alert" size={16} />
          <p>
            <strong>This room reached its daily token budget.</strong> Agents&apos; reads get &quot;budget reached&quot; until midnight UTC.
          </p>
          <span className="banner-actions">
            <button type="button" className="btn btn-small" onClick={onBudget}>Change budget…</button>
          </span>
        </div>
      )}
    </div>
  );
}
