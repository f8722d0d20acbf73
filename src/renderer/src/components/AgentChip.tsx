// An agent as a chip: presence dot, name and (optionally) what it is doing.
import { StatusDot } from './StatusDot';
import type { AgentStatus } from '../../../shared/types';

export function AgentChip({ name, online = true, status = 'idle', statusText, title }: { name: string; online?: boolean; status?: AgentStatus; statusText?: string; title?: string }) {
  return (
    <span className="agent-chip" title={title ?? (statusText ? `${name}: ${statusText}` : name)}>
      <StatusDot online={online} status={status} />
      <span className="agent-chip-name">{name}</span>
      {statusText && <span className="agent-chip-text">{statusText}</span>}
    </span>
  );
}
