// The `agent_identity` output piece (mcp-tools.md §2.4). A call without an identity
// reports what the connection's implicit session would be, with agent_session_id null.
import { codename } from '../domain/identity/codenames';
import { actorLabel } from '../domain/identity/labels';
import { legacyAgentKey } from '../domain/identity/agentKeys';
import type { SessionRow } from '../domain/sessions/sessions';
import { ideLabelFor } from './clientIdentity';
import type { ConnectionState } from './connectionState';
import type { ToolEnv } from './services';

export interface AgentIdentity {
  display_name: string;
  owner_label: string;
  ide_label: string;
  actor_label: string;
  agent_key: string;
  agent_session_id: string | null;
  source: 'local';
}

/** The implicit identity's code name: its hash made once per connection (its id never changes). */
const implicitNames = new WeakMap<ConnectionState, string>();
function implicitName(conn: ConnectionState): string {
  let name = implicitNames.get(conn);
  if (name === undefined) implicitNames.set(conn, (name = codename(`conn:${conn.id}`).displayName));
  return name;
}

export async function agentIdentity(env: ToolEnv, session: SessionRow | null): Promise<AgentIdentity> {
  if (session) {
    return {
      display_name: session.display_name,
      owner_label: session.owner_label,
      ide_label: session.ide_label,
      actor_label: session.actor_label,
      agent_key: session.agent_key,
      agent_session_id: session.session_id,
      source: 'local',
    };
  }
  const owner = await env.services.owner();
  const { ideLabel } = ideLabelFor(env.conn);
  const name = implicitName(env.conn);
  return {
    display_name: name,
    owner_label: owner.ownerLabel,
    ide_label: ideLabel,
    actor_label: actorLabel(name, owner.ownerLabel, ideLabel),
    agent_key: legacyAgentKey(owner.ownerSlug, env.conn.nextImplicitSessionId),
    agent_session_id: null,
    source: 'local',
  };
}
