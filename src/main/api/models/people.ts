// Who wrote or holds something, as the UI shows it (the contract's Person): parsed from
// the stored actor label, so agents show name, owner and IDE; people and the system a name.
import type { Person } from '../../../shared/model/common';
import { SYSTEM_SENDER } from '../../domain/actor';
import { ownerAttribution, parseActorLabel } from '../../domain/identity/labels';

/** A Person from an actor label; `agentKey` null for people and the system. */
export function personOf(label: string, agentKey: string | null = null): Person {
  const parsed = parseActorLabel(label);
  if (!parsed) return { label, name: label, owner: null, ide: null, agentKey };
  return {
    label,
    name: parsed.displayName,
    owner: ownerAttribution(parsed.ownerLabel),
    ide: parsed.ideLabel,
    agentKey,
  };
}

/** The sender of a stored message: its source decides how its label reads. */
export function senderOf(row: { source: 'agent' | 'human' | 'system'; sender: string; publisher_agent_key: string | null }): Person {
  if (row.source === 'system') return { label: row.sender || SYSTEM_SENDER, name: row.sender || SYSTEM_SENDER, owner: null, ide: null, agentKey: null };
  if (row.source === 'human') return { label: row.sender, name: row.sender, owner: null, ide: null, agentKey: null };
  return personOf(row.sender, row.publisher_agent_key);
}

/** The short name of a label ("Juniper" from "Juniper | Ada's agent | Claude Code"). */
export const shortNameOf = (label: string): string => personOf(label).name;
