// Managed agents on a phone (issue 37): each one's state in the app's words, and Pause, Resume
// and Stop as big buttons. Adding, removing and their folders stay on the computer.
import { useState } from 'react';
import type { ManagedAgent } from '../../../../shared/types';
import { MANAGED_STATE_WORDS } from '../../../../shared/model/agentState';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useQuery } from '../../api/useQuery';
import { useToast } from '../../components/Toasts';
import { PhonePage } from './PhonePage';

type Action = 'agents.pause' | 'agents.resume' | 'agents.stop';

/** What a person can do to an agent in its state now. */
function actionsOf(agent: ManagedAgent): Array<{ method: Action; label: string; done: string }> {
  const paused = agent.state === 'paused' || agent.state === 'held' || agent.state === 'cant_run';
  return [
    ...(agent.state === 'running' ? [{ method: 'agents.stop' as const, label: 'Stop', done: 'Stopped its turn.' }] : []),
    paused ? { method: 'agents.resume' as const, label: 'Resume', done: 'Takes turns again.' } : { method: 'agents.pause' as const, label: 'Pause', done: 'Paused: no new turns.' },
  ];
}

export function PhoneAgents() {
  const api = useApi();
  const toast = useToast();
  const agents = useQuery('agents.list', {}, (e) => e.type === 'agent.changed');
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (agent: ManagedAgent, action: ReturnType<typeof actionsOf>[number]) => {
    setBusy(agent.agentId);
    try {
      const next = await api.call(action.method, { agentId: agent.agentId });
      agents.setData((list) => list.map((a) => (a.agentId === next.agentId ? next : a)));
      toast(`${agent.name}: ${action.done}`);
    } catch (error) {
      toast(errorMessage(error), 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <PhonePage id="phone-agents-title" title="Agents" query={agents} loading="Loading agents…" empty={{ icon: 'bot', title: 'No managed agents', text: 'Agents the app runs for you show here; add them on your computer.' }}>
      {(list) =>
        list.map((agent) => (
          <li key={agent.agentId} className="phone-card">
            <article aria-label={agent.name}>
              <h2 className="phone-card-title">{agent.name}</h2>
              <p className="muted">
                {agent.providerName} in {agent.roomName}
              </p>
              <p className="phone-state">
                {agent.state === 'cant_run' && agent.cantRun ? `${MANAGED_STATE_WORDS.cant_run}: ${agent.cantRun.reason}` : MANAGED_STATE_WORDS[agent.state]}
              </p>
              <div className="phone-actions">
                {actionsOf(agent).map((action) => (
                  <button key={action.method} type="button" className={action.method === 'agents.stop' ? 'btn btn-large' : 'btn btn-primary btn-large'} aria-disabled={busy === agent.agentId || undefined} onClick={() => busy === null && void act(agent, action)}>
                    {action.label}
                  </button>
                ))}
              </div>
            </article>
          </li>
        ))
      }
    </PhonePage>
  );
}
