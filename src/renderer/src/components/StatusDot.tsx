// A coloured dot for an agent's presence: offline, or online and idle/working/reviewing/blocked.
import type { AgentStatus } from '../../../shared/types';

export function StatusDot({ online, status }: { online: boolean; status: AgentStatus }) {
  const state = online ? status : 'offline';
  return <span className={`status-dot status-${state}`} aria-hidden="true" />;
}
