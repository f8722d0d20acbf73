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
import { openDatabase } from '../../main/store/database';
import { resolveDevHelperCommand } from '../../main/setup/helperCommand';
import { createSetupService } from '../../main/setup/setupService';

async function signInFacts(dataDir: string): Promise<SignInFacts> {
  const keychain = await createKeychainSecretStore().availability();
  let signedInAs: string | null = null;
  let clientSetting: string | null = null;
  if (existsSync(databasePath(dataDir))) {
    const db = openDatabase(databasePath(dataDir), { readonly: true });
    try {
      const account = getAccountRow(db);
      signedInAs = account ? (account.display_name || account.login) : null;
      clientSetting = getGitHubClientIdSetting(db);
    } finally {
      db.close();
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
