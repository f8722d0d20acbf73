// The room setting "Reply to @all" (issue 34): a person's @all (or @everyone, @here, @agents) is
// answered one agent at a time, each seeing the earlier answers, or by every agent at once.
import { useState } from 'react';
import type { ReplyToAll, RoomSummary } from '../../../../shared/model/rooms';
import { useApi } from '../../api/ApiContext';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import { roomTitle } from '../../lib/rooms';

export const REPLY_TO_ALL_WORDS: Readonly<Record<ReplyToAll, { label: string; detail: string }>> = {
  in_turn: { label: 'In turn', detail: 'One agent at a time: each sees the answers before it and may pass. Rooms of 2 to 8 agents.' },
  all_at_once: { label: 'All at once', detail: 'Every agent gets it at the same moment and may answer at once.' },
};

const MODES: readonly ReplyToAll[] = ['in_turn', 'all_at_once'];

export function ReplyToAllDialog({ room, onClose }: { room: RoomSummary; onClose: () => void }) {
  const api = useApi();
  const [mode, setMode] = useState<ReplyToAll>(room.replyToAll);
  return (
    <Dialog title={`Reply to @all in ${roomTitle(room)}`} onClose={onClose}>
      <Form
        submitLabel="Save"
        onSubmit={async () => {
          await api.call('rooms.setReplyToAll', { roomId: room.id, place: room.place, mode });
          onClose();
        }}
        onCancel={onClose}
      >
        <fieldset className="choice-list" aria-describedby="reply-to-all-note">
          <legend className="managed-legend">How the agents answer your @all</legend>
          {MODES.map((m) => (
            <label key={m} className="choice">
              <input type="radio" name="reply-to-all" value={m} checked={mode === m} onChange={() => setMode(m)} data-autofocus={mode === m || undefined} />
              <span>
                <span className="choice-name">{REPLY_TO_ALL_WORDS[m].label}</span>
                <span className="managed-choice-detail muted">{REPLY_TO_ALL_WORDS[m].detail}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <p className="muted" id="reply-to-all-note">
          Agents you also name in the message (@all @Cedar) get it at once. Messages already sent keep their way.
        </p>
      </Form>
    </Dialog>
  );
}
