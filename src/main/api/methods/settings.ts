// settings.*: theme, notifications and the GitHub OAuth client id (kept by the auth
// service), the delivery limits (issue 14), plus where the data folder is.
import type { Settings, Theme } from '../../../shared/model/app';
import { APPROVAL_TIMEOUT_SETTING, DEFAULT_APPROVAL_TIMEOUT_MINUTES } from '../../approvals/approvals';
import { resolveClientId } from '../../auth/githubSettings';
import { getGitHubClientIdSetting } from '../../store/accountQueries';
import { getSetting, setSetting } from '../../store/settingsQueries';
import type { DeliveryLimits } from '../../delivery/deliverySettings';
import type { ApiContext } from '../context';
import type { Methods } from './types';

type SettingsMethods = Methods<'settings.get' | 'settings.set'>;

export const THEME_SETTING = 'ui.theme';
export const NOTIFICATIONS_SETTING = 'ui.notifications';
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export async function readSettings(ctx: ApiContext): Promise<Settings> {
  const { stored, fromSettings, notifications, approvalMinutes } = await ctx.read(async (q) => ({
    stored: await getSetting(q, THEME_SETTING),
    fromSettings: await getGitHubClientIdSetting(q),
    notifications: await getSetting(q, NOTIFICATIONS_SETTING),
    approvalMinutes: Number(await getSetting(q, APPROVAL_TIMEOUT_SETTING)),
  }));
  const env = ctx.host.env ?? process.env;
  await ctx.app.hub.delivery.settings.ready;
  // The same rule the auth service signs in with: the app's setting first, else the environment.
  const clientId = resolveClientId(fromSettings, env);
  return {
    theme: THEMES.find((t) => t === stored) ?? 'system',
    notifications: notifications !== 'off',
    githubClientId: clientId,
    githubClientIdSource: clientId === null ? 'none' : fromSettings?.trim() ? 'settings' : 'environment',
    dataDir: ctx.app.core.dataDir,
    delivery: deliveryLimitsOf(ctx.app.hub.delivery.settings.limits),
    approvalTimeoutMinutes: Number.isInteger(approvalMinutes) && approvalMinutes > 0 ? approvalMinutes : DEFAULT_APPROVAL_TIMEOUT_MINUTES,
  };
}

function deliveryLimitsOf(limits: DeliveryLimits): Settings['delivery'] {
  return {
    unansweredAfterSeconds: Math.round(limits.unansweredAfterMs / 1000),
    loopGuardMessages: limits.loopMessages,
    loopGuardMinutes: Math.round(limits.loopWindowMs / 60_000),
  };
}

export function settingsMethods(ctx: ApiContext): SettingsMethods {
  return {
    'settings.get': () => readSettings(ctx),
    'settings.set': async ({ theme, notifications, githubClientId, delivery, approvalTimeoutMinutes }) => {
      if (delivery !== undefined) await ctx.app.hub.delivery.settings.update(delivery);
      if (theme !== undefined || notifications !== undefined || approvalTimeoutMinutes !== undefined) {
        await ctx.write(async (tx) => {
          if (approvalTimeoutMinutes !== undefined) await setSetting(tx, APPROVAL_TIMEOUT_SETTING, String(approvalTimeoutMinutes));
          if (theme !== undefined) await setSetting(tx, THEME_SETTING, theme);
          if (notifications !== undefined) await setSetting(tx, NOTIFICATIONS_SETTING, notifications ? 'on' : 'off');
        });
      }
      if (githubClientId !== undefined) await ctx.app.auth.setClientId(githubClientId);
      return readSettings(ctx);
    },
  };
}
