// The dialogs behind the roster's actions: rename, and confirmations for disconnect and
// remove (they end work, so the person confirms).
import type { AgentSession } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useRoomTitle } from '../../app/appData';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { MAX_NAME_CHARS, RenameDialog } from '../../components/RenameDialog';
import { useToast } from '../../components/Toasts';
import type { AgentAction } from './AgentRow';

export function AgentDialogs({ agent, action, onDone }: { agent: AgentSession; action: AgentAction; onDone: () => void }) {
  const api = useApi();
  const toast = useToast();
  const roomName = useRoomTitle()(agent, agent.roomName);
  if (action === 'rename') {
    return (
      <RenameDialog
        title={`Rename ${agent.name}`}
        label="Name in this room"
        initial={agent.name}
        maxLength={MAX_NAME_CHARS}
        onRename={async (name) => {
          await api.call('workers.rename', { sessionId: agent.sessionId, place: agent.place, name });
          toast(`${agent.name} is now ${name}.`);
        }}
        onClose={onDone}
      />
    );
  }
  if (action === 'disconnect') {
    return (
      <ConfirmDialog
        title={`Disconnect ${agent.name}?`}
        confirmLabel="Disconnect"
        danger
        onConfirm={async () => {
          await api.call('workers.disconnect', { sessionId: agent.sessionId, place: agent.place });
          toast(`${agent.name} was disconnected.`);
        }}
        onClose={onDone}
      >
        Its connection ends now and whatever it is waiting for stops. It keeps its tasks and can reconnect.
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      title={`Remove ${agent.name} from ${roomName}?`}
      confirmLabel="Remove from room"
      danger
      onConfirm={async () => {
        await api.call('workers.remove', { sessionId: agent.sessionId, place: agent.place });
        toast(`${agent.name} was removed from ${roomName}.`);
      }}
      onClose={onDone}
    >
      It leaves the room, and the tasks it holds here go back to Accepted for someone else.
    </ConfirmDialog>
  );
}
