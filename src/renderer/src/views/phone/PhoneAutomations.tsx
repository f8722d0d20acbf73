// Automations on a phone (issue 37): each one's room, what starts it, its next and last run with
// the outcome, and Pause or Resume as a big button. Adding, editing, Run now and Delete stay on
// the computer (a device key may call only automations.list, .pause and .resume).
import { useState } from 'react';
import type { Automation } from '../../../../shared/model/automations';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useQuery } from '../../api/useQuery';
import { useToast } from '../../components/Toasts';
import { AutomationFacts } from '../automations/AutomationFacts';
import { PhonePage } from './PhonePage';

export function PhoneAutomations() {
  const api = useApi();
  const toast = useToast();
  const automations = useQuery('automations.list', {}, (e) => e.type === 'automation.changed' || e.type === 'agent.changed');
  const [busy, setBusy] = useState<string | null>(null);
  const toggle = async (a: Automation) => {
    const pausing = a.state !== 'paused';
    setBusy(a.automationId);
    try {
      const next = await api.call(pausing ? 'automations.pause' : 'automations.resume', { automationId: a.automationId });
      automations.setData((list) => list.map((x) => (x.automationId === next.automationId ? next : x)));
      toast(`${a.name}: ${pausing ? 'Paused: no runs until you resume it.' : 'Runs again.'}`);
    } catch (error) {
      toast(errorMessage(error), 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <PhonePage id="phone-automations-title" title="Automations" query={automations} loading="Loading automations…" empty={{ icon: 'clock', title: 'No automations', text: 'Automations you add on your computer show here.' }}>
      {(list) =>
        list.map((a) => (
          <li key={a.automationId} className="phone-card">
            <article aria-label={a.name}>
              <h2 className="phone-card-title">{a.name}</h2>
              <p className="muted">
                {a.triggerText} in {a.roomName}
              </p>
              <p className="phone-state">{a.state === 'paused' ? 'Paused' : a.running ? 'Running' : 'Active'}</p>
              {a.notice && <p className="managed-held">{a.notice}</p>}
              <AutomationFacts automation={a} />
              <div className="phone-actions">
                <button type="button" className="btn btn-primary btn-large" aria-disabled={busy === a.automationId || undefined} onClick={() => busy === null && void toggle(a)}>
                  {a.state === 'paused' ? 'Resume' : 'Pause'}
                </button>
              </div>
            </article>
          </li>
        ))
      }
    </PhonePage>
  );
}
