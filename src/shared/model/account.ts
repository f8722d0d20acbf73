// GitHub sign-in as the UI sees it: who is signed in and the device flow's public part.
// The token and the device code never appear here.
import { z } from 'zod';
import { Timestamp } from './common';

export const Account = z.object({
  login: z.string(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});

/** The public half of a pending device authorization. */
export const DeviceFlow = z.object({
  userCode: z.string(),
  verificationUri: z.string(),
  expiresAt: Timestamp,
  /** Lifetime in seconds when issued (for the countdown bar). */
  expiresIn: z.number().int().min(0),
  /** Seconds between polls. */
  interval: z.number().int().min(1),
});

export const AuthStatus = z.object({
  signedIn: z.boolean(),
  account: Account.nullable(),
  keychain: z.object({ available: z.boolean(), message: z.string().nullable() }),
  clientConfigured: z.boolean(),
  pending: DeviceFlow.nullable(),
});

export const PollResult = z.object({
  status: z.enum(['pending', 'slow_down', 'authorized', 'denied', 'expired', 'error']),
  message: z.string().nullable(),
  account: Account.nullable(),
  interval: z.number().int().min(1).nullable(),
});

export type Account = z.infer<typeof Account>;
export type DeviceFlow = z.infer<typeof DeviceFlow>;
export type AuthStatus = z.infer<typeof AuthStatus>;
export type PollResult = z.infer<typeof PollResult>;
