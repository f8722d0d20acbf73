// Sets a room's daily token budget (issue 14): past it, agents' reads get a soft "budget
// reached" until midnight UTC, and "Needs you" says so. Empty removes the budget.
import { useState } from 'react';
import { TOKEN_ESTIMATE_NOTE } from '../../../../shared/tokens';
import { useApi } from '../../api/ApiContext';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import type { RoomRef } from '../../lib/rooms';
import type { Meter } from '../../../../shared/types';
import { TokenMeter } from './TokenMeter';

/** `meter`: the room's use so far, shown here rather than in the room header (issue 27). */
export function BudgetDialog({ room, roomName, current, meter, onClose }: { room: RoomRef; roomName: string; current: number | null; meter?: Meter; onClose: () => void }) {
  const api = useApi();
  const [value, setValue] = useState(current === null ? '' : String(current));
  const parsed = value.trim() === '' ? null : Number(value.replace(/[\s,_]/g, ''));
  return (
    <Dialog title={`Token budget for ${roomName}`} onClose={onClose}>
      <Form
        submitLabel={parsed === null ? 'Remove budget' : 'Save budget'}
        check={() => (parsed !== null && (!Number.isInteger(parsed) || parsed < 1000 || parsed > 1_000_000_000) ? 'Type a whole number of tokens from 1,000 to 1,000,000,000, or leave it empty for no budget.' : null)}
        onSubmit={async () => {
          await api.call('delivery.setRoomBudget', { ...room, dailyTokens: parsed });
          onClose();
        }}
        onCancel={onClose}
      >
        {(error) => (
          <>
            {meter && (
              <p className="budget-use">
                Used: <TokenMeter meter={meter} budgetTokens={current} />
              </p>
            )}
            <label className="field">
              <span>Tokens a day (empty: no budget)</span>
              <input inputMode="numeric" value={value} onChange={(e) => setValue(e.target.value)} data-autofocus aria-invalid={error ? true : undefined} aria-describedby="budget-note" />
            </label>
            <p className="muted" id="budget-note">
              Past the budget, the room&apos;s agents get &quot;budget reached&quot; when they read, until midnight UTC. {TOKEN_ESTIMATE_NOTE}
            </p>
          </>
        )}
      </Form>
    </Dialog>
  );
}
