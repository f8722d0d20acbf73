// The team registry: which teams this app knows, where each one's URL comes from (the OS
// keychain, or LETAGENTS_TEAM_URL_<NAME> on a headless host, which wins), its repo
// patterns, and the default place of new rooms. Every read goes back to the settings (kept
// only while no other process wrote the file: teamSettings.ts), the keychain and the
// environment, so a change made by `letagents-desktop team …` in another process is seen on
// the next read. Adding tests the connection and sets the database up
// before anything is stored; a refused add or remove changes nothing.
import { accessSync, constants } from 'node:fs';
import { isDomainError } from '../domain/errors';
import { EventBus } from '../events/bus';
import type { SecretStore } from '../secrets/secretStore';
import { PG_SCHEMA_VERSION } from '../store/postgres/migrations';
import { connectionReason } from '../store/postgres/pgErrors';
import { PostgresStorage } from '../store/postgres/postgresStorage';
import { WriteQueue } from '../store/writeQueue';
import { checkTeamUrl, TeamUrlError, type TlsMode } from '../store/postgres/teamUrl';
import { TeamOfflineError } from '../store/storageErrors';
import { checkRepoPatterns, teamForRepo } from './repoPatterns';
import { environmentTeams, teamVariables, type EnvironmentProblem } from './teamEnvironment';
import { keychainFailure, teamErrors } from './teamErrors';
import { checkTeamName, LOCAL_PLACE, sameTeam, teamKeychainAccount } from './teamNames';
import { probeTeam, type TeamProbe } from './teamProbe';
import type { TeamRecord, TeamSettingsAccess } from './teamSettings';
import { redactTeamUrl } from './teamUrlDisplay';

export type TeamSource = 'keychain' | 'environment';

export interface RegisteredTeam {
  readonly name: string;
  readonly source: TeamSource;
  /** LETAGENTS_TEAM_URL_<NAME> when the environment gives the URL. */
  readonly variable: string | null;
  /** The URL without its password (redactTeamUrl). */
  readonly shownUrl: string;
  readonly patterns: readonly string[];
  readonly allowPlaintext: boolean;
  /** The TLS the URL asks for; null: none (this computer, or plaintext allowed). */
  readonly tls: TlsMode | null;
}

/** What a team's storage is opened with. `url` holds a password: never log or show it. */
export interface TeamConnectionInfo {
  readonly team: RegisteredTeam;
  readonly url: string;
}

export interface AddTeamInput {
  readonly name: string;
  readonly url: string;
  readonly allowPlaintext?: boolean;
}

export interface AddedTeam {
  readonly team: RegisteredTeam;
  readonly probe: TeamProbe;
  /** The connected, migrated storage: the caller keeps it (the app) or closes it (the CLI). */
  readonly storage: PostgresStorage;
  readonly url: string;
}

export interface RemovedTeam {
  readonly name: string;
  /** The environment variable that still gives the team after its keychain entry went. */
  readonly stillFromEnvironment: string | null;
}

export interface TeamRegistryOptions {
  readonly settings: TeamSettingsAccess;
  readonly secrets: SecretStore;
  readonly env: NodeJS.ProcessEnv;
  /** Where the storage an add opens publishes its events (the app's bus). */
  readonly bus?: EventBus;
  readonly connectTimeoutMs?: number;
}

export class TeamRegistry {
  private readonly listeners = new Set<() => void>();
  /** The environment's team variables, taken once (teamVariables says why). */
  private readonly env: NodeJS.ProcessEnv;
  /** The keychain-and-settings step of adds, one at a time (keep() says why). */
  private readonly adding = new WriteQueue();

  constructor(private readonly options: TeamRegistryOptions) {
    this.env = teamVariables(options.env);
  }

  /** Every team in display order: stored ones first, then those only the environment gives. */
  async list(): Promise<RegisteredTeam[]> {
    const { teams: records } = await this.options.settings.read();
    const fromEnv = environmentTeams(this.env, records.map((r) => r.name)).teams;
    const listed: RegisteredTeam[] = [];
    for (const record of records) {
      const env = fromEnv.find((e) => sameTeam(e.name, record.name));
      if (env) listed.push(teamOf(record, { source: 'environment', variable: env.variable, shownUrl: redactTeamUrl(env.url) }));
      else if (record.inKeychain) listed.push(teamOf(record, { source: 'keychain', variable: null, shownUrl: record.shownUrl ?? '(in the keychain)' }));
    }
    for (const env of fromEnv) {
      if (records.some((r) => sameTeam(r.name, env.name))) continue;
      const shownUrl = redactTeamUrl(env.url);
      listed.push({ name: env.name, source: 'environment', variable: env.variable, shownUrl, patterns: [], allowPlaintext: false, tls: requestedTls(shownUrl) });
    }
    return listed;
  }

  async find(name: string): Promise<RegisteredTeam | null> {
    return (await this.list()).find((team) => sameTeam(team.name, name)) ?? null;
  }

  /** Where new rooms go when nothing else decides: 'local', or a team that is still listed. */
  async defaultPlace(): Promise<string> {
    const { defaultPlace } = await this.options.settings.read();
    if (defaultPlace === LOCAL_PLACE) return LOCAL_PLACE;
    return (await this.find(defaultPlace))?.name ?? LOCAL_PLACE;
  }

  /** The first team (display order) whose repo patterns match the repo room id; null for none. */
  async teamForRepo(repoId: string): Promise<string | null> {
    return teamForRepo(await this.list(), repoId);
  }

  /** LETAGENTS_TEAM_URL_* variables that name no valid team (`doctor` shows them). */
  async environmentProblems(): Promise<EnvironmentProblem[]> {
    const { teams } = await this.options.settings.read();
    return environmentTeams(this.env, teams.map((r) => r.name)).problems;
  }

  /** The team and its URL (from the environment or the keychain); team_not_found, team_unavailable, keychain_unavailable. */
  async connectionOf(name: string): Promise<TeamConnectionInfo> {
    const team = await this.find(name);
    if (!team) throw teamErrors.notFound(name);
    if (team.variable) return { team, url: this.env[team.variable]!.trim() };
    const url = await keychainCall(() => this.options.secrets.get(teamKeychainAccount(team.name)));
    if (!url) throw teamErrors.noUrl(team.name);
    return { team, url };
  }

  /**
   * Checks the name and the URL (the TLS rule), connects, sets the database up (migrations
   * under the advisory lock), then keeps the URL in the keychain and the rest in the
   * settings (keep). Anything refused on the way leaves the keychain and the settings as they were.
   */
  async add(input: AddTeamInput): Promise<AddedTeam> {
    const name = checkTeamName(input.name);
    const allowPlaintext = input.allowPlaintext === true;
    const existing = await this.find(name);
    if (existing?.variable) throw teamErrors.fromEnvironment(existing.name, existing.variable);
    if (existing) throw teamErrors.exists(existing.name);
    const url = input.url.trim();
    const checked = checkTeamUrl(url, { allowPlaintext });
    if (checked.tls?.rootCertPath) readableCertificate(checked.tls.rootCertPath);
    // The keychain first: a team whose URL cannot be kept is not worth connecting to.
    const keychain = await this.options.secrets.availability();
    if (!keychain.available) throw teamErrors.keychain(keychain.reason, keychain.fix);
    const storage = await this.connectNew(name, url, allowPlaintext, checked.host);
    try {
      const probe = await probeTeam(url, { allowPlaintext, connectTimeoutMs: this.options.connectTimeoutMs });
      const record: TeamRecord = { name, patterns: [], allowPlaintext, inKeychain: true, shownUrl: redactTeamUrl(url) };
      // One add at a time in this app: the keychain rollback below must not undo a twin's write.
      await this.adding.enqueue(() => this.keep(name, url, record), true);
      this.changed();
      return { team: (await this.find(name))!, probe, storage, url };
    } catch (error) {
      await storage.close();
      throw error;
    }
  }

  /**
   * Keeps the URL in the keychain, then the row that lists the team: a failed keychain write
   * leaves nothing listed or stored, and a refused row (the name taken meanwhile, a settings
   * write that failed) puts the keychain entry back as it was, unless another add replaced it.
   */
  private async keep(name: string, url: string, record: TeamRecord): Promise<void> {
    const account = teamKeychainAccount(name);
    const { secrets } = this.options;
    const before = await keychainCall(() => secrets.get(account));
    await keychainCall(() => secrets.set(account, url));
    try {
      await this.options.settings.update((current) => {
        const clash = current.teams.find((r) => sameTeam(r.name, name));
        if (clash?.inKeychain) throw teamErrors.exists(clash.name);
        // A record kept for an environment team's patterns (now unset) is replaced, patterns kept.
        const kept = { ...record, patterns: clash?.patterns ?? [] };
        return { next: { ...current, teams: [...current.teams.filter((r) => r !== clash), kept] }, result: undefined };
      });
    } catch (error) {
      try {
        if ((await secrets.get(account)) === url) await (before === null ? secrets.delete(account) : secrets.set(account, before));
      } catch (undo) {
        console.error(`teams: could not take the keychain entry of "${name}" back after a refused add:`, undo);
      }
      throw error;
    }
  }

  /** A read-only look at a team's database (reachable, schema, latency, TLS). */
  async test(name: string): Promise<TeamProbe> {
    const { team, url } = await this.connectionOf(name);
    return probeTeam(url, { allowPlaintext: team.allowPlaintext, connectTimeoutMs: this.options.connectTimeoutMs });
  }

  /** Forgets the team: its keychain entry, patterns and default. Its rooms stay in its database. */
  async remove(name: string): Promise<RemovedTeam> {
    const { teams: records } = await this.options.settings.read();
    const record = records.find((r) => sameTeam(r.name, name) && r.inKeychain);
    const listed = await this.find(name);
    if (!record) {
      if (listed?.variable) throw teamErrors.onlyInEnvironment(listed.name, listed.variable);
      throw teamErrors.notFound(name);
    }
    await keychainCall(() => this.options.secrets.delete(teamKeychainAccount(record.name)));
    await this.dropRecord(record.name);
    this.changed();
    return { name: record.name, stillFromEnvironment: listed?.variable ?? null };
  }

  /** Replaces the team's repo patterns (checked, duplicates dropped). */
  async setPatterns(name: string, inputs: readonly string[]): Promise<RegisteredTeam> {
    const patterns = checkRepoPatterns(inputs);
    const team = await this.find(name);
    if (!team) throw teamErrors.notFound(name);
    await this.options.settings.update((current) => {
      const record = current.teams.find((r) => sameTeam(r.name, team.name));
      const teams = record
        ? current.teams.map((r) => (r === record ? { ...r, patterns } : r))
        : // A team only the environment gives keeps its patterns here (never its URL).
          [...current.teams, { name: team.name, patterns, allowPlaintext: false, inKeychain: false, shownUrl: null }];
      return { next: { ...current, teams }, result: undefined };
    });
    this.changed();
    return (await this.find(team.name))!;
  }

  /** Sets where new rooms go by default: 'local' or a team's name. Returns the place as stored. */
  async setDefault(place: string): Promise<string> {
    const trimmed = place.trim();
    const chosen = trimmed.toLowerCase() === LOCAL_PLACE ? LOCAL_PLACE : (await this.find(trimmed))?.name;
    if (!chosen) throw teamErrors.unknownPlace(trimmed);
    await this.options.settings.update((current) => ({ next: { ...current, defaultPlace: chosen }, result: undefined }));
    this.changed();
    return chosen;
  }

  /** Changes made through this registry, or reported by changedElsewhere(). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Another process (the CLI) changed the teams: listeners re-read. */
  changedElsewhere(): void {
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        console.error('team registry listener failed:', error);
      }
    }
  }

  private async dropRecord(name: string): Promise<void> {
    await this.options.settings.update((current) => {
      const teams = current.teams.filter((r) => !sameTeam(r.name, name));
      const defaultPlace = sameTeam(current.defaultPlace, name) ? LOCAL_PLACE : current.defaultPlace;
      return { next: { teams, defaultPlace }, result: undefined };
    });
  }

  /** A storage on the new team's database, connected and at a schema this app can write; refused otherwise (and closed). */
  private async connectNew(name: string, url: string, allowPlaintext: boolean, host: string): Promise<PostgresStorage> {
    const storage = new PostgresStorage({
      place: name,
      url,
      allowPlaintext,
      bus: this.options.bus ?? new EventBus(),
      connectTimeoutMs: this.options.connectTimeoutMs,
    });
    try {
      const schema = await storage.ready();
      if (schema.newer) throw teamErrors.tooNew(schema.version, PG_SCHEMA_VERSION);
      return storage;
    } catch (error) {
      await storage.close();
      if (error instanceof TeamOfflineError) throw teamErrors.unreachable(host, error.reason);
      if (isDomainError(error)) throw error;
      throw teamErrors.unreachable(host, connectionReason(error));
    }
  }
}

/** A keychain call whose failure reads as the registry's keychain_unavailable. */
async function keychainCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw keychainFailure(error);
  }
}

function teamOf(record: TeamRecord, from: Pick<RegisteredTeam, 'source' | 'variable' | 'shownUrl'>): RegisteredTeam {
  return { name: record.name, patterns: record.patterns, allowPlaintext: record.allowPlaintext, tls: requestedTls(from.shownUrl), ...from };
}

/** sslrootcert must name a file this app can read (TeamUrlError otherwise, before connecting). */
function readableCertificate(path: string): void {
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new TeamUrlError(`sslrootcert names ${path}, which this app cannot read. Give the path of the CA certificate file (PEM) that signed the server's certificate.`);
  }
}

/** The TLS mode a (redacted) URL asks for; the redaction keeps every TLS parameter. */
function requestedTls(shownUrl: string): TlsMode | null {
  try {
    return checkTeamUrl(shownUrl, { allowPlaintext: true }).tls?.mode ?? null;
  } catch {
    return null;
  }
}
