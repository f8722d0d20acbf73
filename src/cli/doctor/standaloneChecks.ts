// The service checks as the CLI runs them, without starting the app: the keychain probed
// directly, sign-in and client id read from the database (read-only), and the agent
// configs of this user's tools.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { OAUTH_APP_HELP, resolveClientId } from '../../main/auth/githubSettings';
import { agentConfigCheck, signInCheck, type SignInFacts } from '../../main/diagnostics/serviceChecks';
import type { DoctorCheck } from '../../main/diagnostics/check';
import { databasePath, defaultDataDir } from '../../main/paths';
import { createKeychainSecretStore } from '../../main/secrets/keychainSecretStore';
import { getAccountRow, getGitHubClientIdSetting } from '../../main/store/accountQueries';
import { SqliteStorage } from '../../main/store/sqlite/sqliteStorage';
import { EventBus } from '../../main/events/bus';
import { resolveDevHelperCommand } from '../../main/setup/helperCommand';
import { createSetupService } from '../../main/setup/setupService';

async function signInFacts(dataDir: string): Promise<SignInFacts> {
  const keychain = await createKeychainSecretStore().availability();
  let signedInAs: string | null = null;
  let clientSetting: string | null = null;
  if (existsSync(databasePath(dataDir))) {
    const storage = new SqliteStorage({ path: databasePath(dataDir), bus: new EventBus(), readonly: true });
    try {
      const account = await storage.read(getAccountRow);
      signedInAs = account ? (account.display_name || account.login) : null;
      clientSetting = await storage.read(getGitHubClientIdSetting);
    } finally {
      await storage.close();
    }
  }
  const clientConfigured = resolveClientId(clientSetting, process.env) !== null;
  return { keychain, signedInAs, clientConfigured, clientHelp: clientConfigured ? null : OAUTH_APP_HELP };
}

export function standaloneServiceChecks(dataDir: string): DoctorCheck[] {
  const customDataDir = dataDir !== defaultDataDir() ? dataDir : undefined;
  const setup = createSetupService({ home: homedir(), helperCommand: resolveDevHelperCommand({ dataDir: customDataDir }) });
  return [signInCheck(() => signInFacts(dataDir)), agentConfigCheck(() => setup.status())];
}
