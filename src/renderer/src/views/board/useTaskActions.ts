// Runs a board action through the API and says what happened (or why not) in a toast.
// Cancelling waits 10 seconds for Undo first (components/Undo.tsx).
import { useCallback } from 'react';
import { STATUS_LABELS } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useToast } from '../../components/Toasts';
import { useUndo } from '../../components/Undo';
import { movedText, type TaskAction } from './boardRules';

/** The key of a task's pending cancel. */
export const cancelKey = (task: Pick<TaskCard, 'roomId' | 'place' | 'number'>) => `cancel:${task.place}:${task.roomId}:${task.number}`;

export function useTaskActions() {
  const api = useApi();
  const toast = useToast();
  const { offer } = useUndo();
  return useCallback(
    async (task: TaskCard, action: TaskAction, agentKey?: string): Promise<TaskCard | null> => {
      const ref = { roomId: task.roomId, place: task.place, number: task.number };
      if (action.kind === 'cancel') {
        const cancelled = { ...task, status: 'cancelled' as const };
        offer({
          key: cancelKey(task),
          text: movedText(cancelled),
          undoneText: `${task.id} stays ${STATUS_LABELS[task.status]}.`,
          apply: () => api.call('tasks.cancel', ref).catch((error: unknown) => toast(errorMessage(error), 'error')),
        });
        return cancelled;
      }
      try {
        let result: TaskCard;
        if (action.kind === 'accept') result = await api.call('tasks.accept', ref);
        else if (action.kind === 'assign') result = await api.call('tasks.handoff', { ...ref, toAgentKey: agentKey ?? '' });
        else result = await api.call('tasks.move', { ...ref, to: action.to });
        toast(movedText(result));
        return result;
      } catch (error) {
        toast(errorMessage(error), 'error');
        return null;
      }
    },
    [api, toast, offer],
  );
}
