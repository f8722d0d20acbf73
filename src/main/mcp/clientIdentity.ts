// The IDE label and runtime of a connection (data-model.md §5.4): the helper's --ide
// flag or LETAGENTS_AGENT_IDE first, then the MCP clientInfo.name.
import { ideLabel, runtimeSlug } from '../domain/identity/labels';
import type { ConnectionState } from './connectionState';

interface KeptLabel {
  readonly ideHint: string | null;
  readonly clientName: string;
  readonly label: { ideLabel: string; runtime: string };
}

/** Asked on every call without a session: kept per connection, made again if its sources change. */
const kept = new WeakMap<ConnectionState, KeptLabel>();

export function ideLabelFor(conn: ConnectionState): { ideLabel: string; runtime: string } {
  const last = kept.get(conn);
  if (last && last.ideHint === conn.info.ideHint && last.clientName === conn.clientName) return last.label;
  const label = ideLabel({ ideFlag: conn.info.ideHint, envIde: null, clientName: conn.clientName || null });
  const made = { ideLabel: label, runtime: runtimeSlug(label) };
  kept.set(conn, { ideHint: conn.info.ideHint, clientName: conn.clientName, label: made });
  return made;
}
