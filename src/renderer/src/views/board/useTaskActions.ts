// Runs a board action through the API and says what happened (or why not) in a toast.
import { useCallback } from 'react';
import type { TaskCard } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useToast } from '../../components/Toasts';
import { movedText, type TaskAction } from './boardRules';

export function useTaskActions() {
  const api = useApi();
  const toast = useToast();
  return useCallback(
    async (task: TaskCard, action: TaskAction, agentKey?: string): Promise<TaskCard | null> => {
      const ref = { roomId: task.roomId, number: task.number };
      try {
        let result: TaskCard;
        if (action.kind === 'accept') result = await api.call('tasks.accept', ref);
        else if (action.kind === 'cancel') result = await api.call('tasks.cancel', ref);
        else if (action.kind === 'assign') result = await api.call('tasks.handoff', { ...ref, toAgentKey: agentKey ?? '' });
        else result = await api.call('tasks.move', { ...ref, to: action.to });
        toast(movedText(result));
        return result;
      } catch (error) {
        toast(errorMessage(error), 'error');
        return null;
      }
    },
    [api, toast],
  );
}
