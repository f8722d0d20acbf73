// The IDE label and runtime of a connection (data-model.md §5.4): the helper's --ide
// flag or LETAGENTS_AGENT_IDE first, then the MCP clientInfo.name.
import { ideLabel, runtimeSlug } from '../domain/identity/labels';
import type { ConnectionState } from './connectionState';

export function ideLabelFor(conn: ConnectionState): { ideLabel: string; runtime: string } {
  const label = ideLabel({ ideFlag: conn.info.ideHint, envIde: null, clientName: conn.clientName || null });
  return { ideLabel: label, runtime: runtimeSlug(label) };
}
