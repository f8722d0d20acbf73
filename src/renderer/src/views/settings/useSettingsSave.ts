// Saving a settings form: the answer replaces the shown settings and a toast confirms;
// a refusal stays next to the form.
import { useState } from 'react';
import type { MethodInput } from '../../../../shared/contract';
import type { Settings } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useToast } from '../../components/Toasts';

export function useSettingsSave(onSaved: (settings: Settings) => void, saved: string) {
  const api = useApi();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const save = async (patch: MethodInput<'settings.set'>) => {
    try {
      onSaved(await api.call('settings.set', patch));
      setError(null);
      toast(saved);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return { error, setError, save };
}
