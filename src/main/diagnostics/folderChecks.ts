// The doctor checks any process can run on a data folder: folder, database, agent token,
// and whether the app answers on its socket.
import { existsSync, statSync } from 'node:fs';
import { SCHEMA_VERSION } from '../store/sqlite/migrations';
import { assertIntact, DatabaseVersionError, openDatabase } from '../store/sqlite/database';
import { folderCreationProblem } from '../store/dataFolder';
import { agentSocketPath, agentTokenPath, databasePath } from '../paths';
import { attemptConnect } from '../../shared-node/appLink';
import { readAppStopped } from '../../shared-node/dataPaths';
import { describeRunningApp, isAppRunStatus } from '../appRunStatus';
import type { CheckOutcome, DoctorCheck } from './check';

const checksModes = process.platform !== 'win32';
const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

export const dataDirCheck: DoctorCheck = {
  title: 'Data folder',
  run({ dataDir }) {
    if (!existsSync(dataDir)) {
      const problem = folderCreationProblem(dataDir);
      if (problem) return { status: 'problem', summary: problem, fix: 'Choose another folder with --data-dir or LETAGENTS_DESKTOP_DATA_DIR.' };
      return { status: 'note', summary: `${dataDir} does not exist yet; the app creates it on first start.` };
    }
    const stat = statSync(dataDir);
    if (!stat.isDirectory()) {
      return { status: 'problem', summary: `${dataDir} is not a folder.`, fix: 'Move that file away or choose another --data-dir.' };
    }
    if (checksModes && (stat.mode & 0o077) !== 0) {
      return {
        status: 'problem',
        summary: `${dataDir} has mode ${octal(stat.mode)}: other users can look inside.`,
        fix: `chmod 700 "${dataDir}"`,
      };
    }
    return { status: 'ok', summary: `${dataDir}${checksModes ? ` (mode ${octal(stat.mode)})` : ''}` };
  },
};

export const databaseCheck: DoctorCheck = {
  title: 'Database',
  run({ dataDir }): CheckOutcome {
    const path = databasePath(dataDir);
    if (!existsSync(path)) return { status: 'note', summary: `No database yet; the app creates ${path} on first start.` };
    let db;
    try {
      db = openDatabase(path, { readonly: true });
    } catch (error) {
      if (error instanceof DatabaseVersionError) {
        return { status: 'problem', summary: error.message, fix: 'Install the newer LetAgents version that wrote it.' };
      }
      return { status: 'problem', summary: (error as Error).message, fix: 'Restore letagents.db from a backup, or move it away to start fresh.' };
    }
    try {
      // The app checks only what it must at start-up; the doctor reads every page.
      try {
        assertIntact(db);
      } catch (error) {
        return { status: 'problem', summary: `${path}: ${(error as Error).message}.`, fix: 'Restore letagents.db from a backup, or move it away to start fresh.' };
      }
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version < SCHEMA_VERSION) {
        return { status: 'note', summary: `Schema version ${version}; the app upgrades it to ${SCHEMA_VERSION} at its next start.` };
      }
      return { status: 'ok', summary: `${path} opens (schema version ${version}).` };
    } finally {
      db.close();
    }
  },
};

export const agentTokenCheck: DoctorCheck = {
  title: 'Agent token',
  run({ dataDir }) {
    const path = agentTokenPath(dataDir);
    if (!existsSync(path)) return { status: 'note', summary: `No agent-token yet; the app creates ${path} on first start.` };
    const stat = statSync(path);
    if (checksModes && (stat.mode & 0o077) !== 0) {
      return {
        status: 'problem',
        summary: `${path} has mode ${octal(stat.mode)}: other users could read the secret agents use.`,
        fix: `chmod 600 "${path}"`,
      };
    }
    if (stat.size === 0) return { status: 'problem', summary: `${path} is empty.`, fix: 'Delete it; the app writes a new one at its next start.' };
    return { status: 'ok', summary: `${path}${checksModes ? ` (mode ${octal(stat.mode)})` : ''}` };
  },
};

export const appSocketCheck: DoctorCheck = {
  title: 'App',
  async run({ dataDir }) {
    const socketPath = agentSocketPath(dataDir) ?? `the named pipe recorded in ${dataDir}`;
    const attempt = await attemptConnect(dataDir, { cwd: null, ide: null, pid: process.pid, probe: true }, { method: 'app.status', input: {} });
    if (attempt.kind === 'connected') {
      attempt.connection.socket.destroy();
      const answer = attempt.welcome.api_result as { ok?: boolean; value?: unknown } | undefined;
      const running = answer?.ok && isAppRunStatus(answer.value) ? `: ${describeRunningApp(answer.value)}` : '';
      return {
        status: 'ok',
        summary: `Running${running}. It answers on ${socketPath} and accepts the agent-token. \`letagents-desktop stop\` stops it.`,
      };
    }
    if (attempt.kind === 'refused') {
      return {
        status: 'problem',
        summary: `Something listens on ${socketPath} but did not accept this folder's agent-token: ${attempt.detail}.`,
        fix: 'Quit the app and start it again, so it and the agent-token file agree.',
      };
    }
    const stale = process.platform !== 'win32' && existsSync(socketPath);
    const stopped = readAppStopped(dataDir);
    return {
      status: 'note',
      summary: `Not running${stopped ? ` (${stopped})` : ''}${stale ? ' (a stale socket file is left; the next start replaces it)' : ''}. ` +
        "An agent's `letagents-desktop mcp` starts it when needed.",
    };
  },
};

export const folderChecks: readonly DoctorCheck[] = [dataDirCheck, databaseCheck, agentTokenCheck, appSocketCheck];
