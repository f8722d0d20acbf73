// Doctor checks of the services around the data folder: the OS keychain with GitHub
// sign-in, and the agent tools' MCP configs. Each takes a function that gathers its facts,
// so the running app passes its live services and the CLI reads them standalone.
import type { KeychainAvailability } from '../secrets/secretStore';
import type { AgentToolStatus } from '../setup/setupService';
import type { DoctorCheck } from './check';

export interface SignInFacts {
  readonly keychain: KeychainAvailability;
  readonly signedInAs: string | null;
  readonly clientConfigured: boolean;
  readonly clientHelp: string | null;
}

export function signInCheck(facts: () => Promise<SignInFacts>): DoctorCheck {
  return {
    title: 'Keychain and GitHub sign-in',
    async run() {
      const status = await facts();
      // Sign-in is optional and everything else works without it: a note, not a problem.
      if (!status.keychain.available) {
        return { status: 'note', summary: `The OS keychain is unavailable (${status.keychain.reason}), so GitHub sign-in is off.`, fix: status.keychain.fix };
      }
      if (status.signedInAs) return { status: 'ok', summary: `Signed in as ${status.signedInAs}; the token is in the OS keychain.` };
      if (!status.clientConfigured) return { status: 'note', summary: 'Not signed in, and no GitHub OAuth client id is set.', fix: status.clientHelp ?? undefined };
      return { status: 'note', summary: 'Not signed in (optional: it only sets the owner name in agent labels).' };
    },
  };
}

export function agentConfigCheck(tools: () => Promise<AgentToolStatus[]>): DoctorCheck {
  return {
    title: 'Agent configs',
    async run() {
      const all = await tools();
      const broken = all.filter((t) => t.problem);
      if (broken.length > 0) return { status: 'problem', summary: broken.map((t) => t.problem).join(' ') };
      const connected = all.filter((t) => t.configured);
      if (connected.length === 0) return { status: 'note', summary: 'No agent tool is connected yet.', fix: 'Open "Connect agents" in the app.' };
      const stale = connected.filter((t) => !t.entryMatches);
      const names = connected.map((t) => t.name).join(', ');
      if (stale.length > 0) {
        return { status: 'note', summary: `Connected: ${names}. ${stale.map((t) => t.name).join(', ')} run a different LetAgents command.`, fix: 'Connect them again to update the entry.' };
      }
      return { status: 'ok', summary: `Connected: ${names}.` };
    },
  };
}
