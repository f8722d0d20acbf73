// Settings, app information and diagnostics.
import { z } from 'zod';
import { DeliveryLimits } from './delivery';

export const Theme = z.enum(['system', 'light', 'dark']);

export const GitHubClientId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'A GitHub client id has only letters, digits, dots, dashes and underscores.');

export const Settings = z.object({
  theme: Theme,
  notifications: z.boolean(),
  githubClientId: z.string().nullable(),
  /** Where the client id comes from: the app's setting wins; "environment" means only LETAGENTS_GITHUB_CLIENT_ID gives one. */
  githubClientIdSource: z.enum(['settings', 'environment', 'none']),
  dataDir: z.string(),
  /** When undelivered messages become "Needs you" items, and when the loop guard pauses agents. */
  delivery: DeliveryLimits,
  /** A tool use an agent asked about and nobody answered within this counts as denied. */
  approvalTimeoutMinutes: z.number().int().min(1).max(1_440),
});

export const SettingsPatch = z.strictObject({
  theme: Theme.optional(),
  notifications: z.boolean().optional(),
  githubClientId: GitHubClientId.nullable().optional(),
  delivery: DeliveryLimits.partial().strict().optional(),
  approvalTimeoutMinutes: z.number().int().min(1, 'Approvals wait at least 1 minute.').max(1_440, 'Approvals wait at most 1,440 minutes (a day).').optional(),
});

export const AppInfo = z.object({
  version: z.string(),
  /** Where this page runs: the desktop window, a browser on this computer, or a paired phone (issue 37). */
  host: z.enum(['electron', 'browser', 'phone']),
  /** On a paired phone: the name it was paired under. */
  device: z.string().nullable().default(null),
  platform: z.string(),
  /** The person posts as this name: the GitHub name when signed in, else the OS user name. */
  person: z.object({ name: z.string(), source: z.enum(['github', 'os']) }),
});

export const DoctorReport = z.object({
  checks: z.array(
    z.object({ id: z.string(), title: z.string(), status: z.enum(['ok', 'warn', 'fail']), detail: z.string() }),
  ),
});

export const Opened = z.object({ opened: z.boolean() });

export type Theme = z.infer<typeof Theme>;
export type Settings = z.infer<typeof Settings>;
export type AppInfo = z.infer<typeof AppInfo>;
export type DoctorReport = z.infer<typeof DoctorReport>;
