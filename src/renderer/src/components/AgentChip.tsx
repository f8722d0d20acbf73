// An agent as a chip: a dot (presence, or whether a mention reaches it), name, optionally a
// short state label and what it says it is doing.
import type { ReactNode } from 'react';
import { StatusDot } from './StatusDot';
import type { AgentStatus } from '../../../shared/types';

export function AgentChip({
  name, online = true, status = 'idle', statusText, title, dot, label,
}: { name: string; online?: boolean; status?: AgentStatus; statusText?: string; title?: string; dot?: ReactNode; label?: string }) {
  return (
    <span className="agent-chip" title={title ?? (statusText ? `${name}: ${statusText}` : name)}>
      {dot ?? <StatusDot online={online} status={status} />}
      <span className="agent-chip-name">{name}</span>
      {label && <span className="agent-chip-label">{label}</span>}
      {statusText && <span className="agent-chip-text">{statusText}</span>}
    </span>
  );
}
