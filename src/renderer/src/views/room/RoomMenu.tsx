// The room's ⋯ menu: rename, pin, token budget, reply to @all, archive, export, delete (with confirmation).
import { useState } from 'react';
import type { RoomSummary } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { Menu } from '../../components/Menu';
import { MAX_NAME_CHARS, RenameDialog } from '../../components/RenameDialog';
import { useToast } from '../../components/Toasts';
import { downloadText } from '../../lib/download';
import { useNavigation } from '../../app/navigation';
import { roomTitle } from '../../lib/rooms';
import { REPLY_TO_ALL_WORDS, ReplyToAllDialog } from './ReplyToAllDialog';

export function RoomMenu({ room, onBudget }: { room: RoomSummary; onBudget: () => void }) {
  const api = useApi();
  const toast = useToast();
  const { navigate } = useNavigation();
  const [dialog, setDialog] = useState<'rename' | 'replyToAll' | 'delete' | null>(null);
  const run = (action: () => Promise<unknown>, done: string) =>
    action().then(() => toast(done), (error: unknown) => toast(errorMessage(error), 'error'));
  const exportAs = (format: 'markdown' | 'json') =>
    run(async () => {
      const file = await api.call('rooms.export', { roomId: room.id, place: room.place, format });
      downloadText(file.fileName, file.mimeType, file.content);
    }, 'Export ready.');
  return (
    <>
      <Menu
        label="Room actions"
        items={[
          { key: 'rename', label: 'Rename…', onSelect: () => setDialog('rename') },
          { key: 'pin', label: room.pinned ? 'Unpin' : 'Pin to top', onSelect: () => run(() => api.call('rooms.pin', { roomId: room.id, place: room.place, pinned: !room.pinned }), room.pinned ? 'Unpinned.' : 'Pinned.') },
          { key: 'budget', label: 'Token budget…', onSelect: onBudget },
          { key: 'replyToAll', label: `Reply to @all: ${REPLY_TO_ALL_WORDS[room.replyToAll].label.toLowerCase()}…`, onSelect: () => setDialog('replyToAll') },
          { key: 'md', label: 'Export as Markdown', onSelect: () => exportAs('markdown') },
          { key: 'json', label: 'Export as JSON', onSelect: () => exportAs('json') },
          { key: 'archive', label: room.archived ? 'Unarchive' : 'Archive', onSelect: () => run(() => api.call('rooms.archive', { roomId: room.id, place: room.place, archived: !room.archived }), room.archived ? 'Room unarchived.' : 'Room archived: it is read-only now.') },
          { key: 'delete', label: 'Delete room…', danger: true, onSelect: () => setDialog('delete') },
        ]}
      >
        <Icon name="more" />
      </Menu>
      {dialog === 'rename' && (
        <RenameDialog title="Rename room" label="Room name" initial={room.name} maxLength={MAX_NAME_CHARS} onRename={(name) => api.call('rooms.rename', { roomId: room.id, place: room.place, name })} onClose={() => setDialog(null)} />
      )}
      {dialog === 'replyToAll' && <ReplyToAllDialog room={room} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && (
        <ConfirmDialog
          title={`Delete ${roomTitle(room)}?`}
          confirmLabel="Delete room"
          danger
          onConfirm={async () => {
            await api.call('rooms.delete', { roomId: room.id, place: room.place });
            navigate({ view: 'home' });
          }}
          onClose={() => setDialog(null)}
        >
          Every message, task and fact in this room is removed for good. Agents in it lose their place.
        </ConfirmDialog>
      )}
    </>
  );
}
