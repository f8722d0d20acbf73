// Teams (team-rooms.md): rooms shared with other machines through a PostgreSQL database.
// The UI sees a team's URL only with the password taken out, never the URL itself.
import { z } from 'zod';

export const TeamName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'A team name has 1–40 letters, digits, "-" or "_" (for example acme or acme-platform).');

/** Whether the app can reach the team's database right now. */
export const TeamConnection = z.discriminatedUnion('status', [
  /** Not opened yet: a team connects on first use. */
  z.object({ status: z.literal('idle') }),
  z.object({ status: z.literal('connecting') }),
  z.object({ status: z.literal('online') }),
  /** Lost or never reached: retried with backoff. */
  z.object({ status: z.literal('offline'), since: z.string(), reason: z.string(), retryAt: z.string() }),
  /** Cannot even try: the URL cannot be read (keychain) or breaks the TLS rule. */
  z.object({ status: z.literal('unavailable'), reason: z.string() }),
]);

export const TlsMode = z.enum(['verify-full', 'verify-ca', 'require']);

export const TeamSummary = z.object({
  name: z.string(),
  /** The URL with its password replaced by *** (and no other parameters than TLS ones). */
  url: z.string(),
  /** Where the URL comes from: the OS keychain, or LETAGENTS_TEAM_URL_<NAME> (`variable`). */
  source: z.enum(['keychain', 'environment']),
  variable: z.string().nullable(),
  patterns: z.array(z.string()),
  allowPlaintext: z.boolean(),
  /** What the URL asks for; null: no TLS (this computer, or plaintext allowed). */
  tls: TlsMode.nullable(),
  connection: TeamConnection,
});

export const TeamsList = z.object({
  teams: z.array(TeamSummary),
  /** Where new rooms go when no pattern decides: 'local' or a team's name. */
  defaultPlace: z.string(),
});

/** A read-only look at a team's database. */
export const TeamTest = z.object({
  reachable: z.boolean(),
  reason: z.string().nullable(),
  schemaVersion: z.number().int().nullable(),
  appSchemaVersion: z.number().int(),
  latencyMs: z.number().nullable(),
  tls: z.object({ on: z.boolean(), mode: TlsMode.nullable(), verified: z.boolean() }),
  serverVersion: z.string().nullable(),
  /** How other machines' changes arrive: at once (LISTEN), or polled every pollSeconds (no working LISTEN endpoint). */
  wakeUps: z.object({ mode: z.enum(['listen', 'poll']), direct: z.boolean(), pollSeconds: z.number() }).nullable(),
});

export const TeamAdded = z.object({ team: TeamSummary, test: TeamTest });
export const TeamRemoved = z.object({
  removed: z.boolean(),
  /** The environment variable that still gives the team (its keychain entry is gone). */
  stillFromEnvironment: z.string().nullable(),
});

export const TeamAddInput = z.strictObject({
  name: TeamName,
  url: z.string().trim().min(1, 'The team URL is required.').max(4096, 'The team URL is too long.'),
  allowPlaintext: z.boolean().optional(),
});

export type TeamConnection = z.infer<typeof TeamConnection>;
export type TeamSummary = z.infer<typeof TeamSummary>;
export type TeamsList = z.infer<typeof TeamsList>;
export type TeamTest = z.infer<typeof TeamTest>;
