// settings.*: theme, notifications and the GitHub OAuth client id (kept by the auth
// service), the delivery limits (issue 14), plus where the data folder is.
import type { Settings, Theme } from '../../../shared/model/app';
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

export function readSettings(ctx: ApiContext): Settings {
  const db = ctx.db;
  const stored = getSetting(db, THEME_SETTING);
  const fromSettings = getGitHubClientIdSetting(db);
  const env = ctx.host.env ?? process.env;
  // The same rule the auth service signs in with: the app's setting first, else the environment.
  const clientId = resolveClientId(fromSettings, env);
  return {
    theme: THEMES.find((t) => t === stored) ?? 'system',
    notifications: getSetting(db, NOTIFICATIONS_SETTING) !== 'off',
    githubClientId: clientId,
    githubClientIdSource: clientId === null ? 'none' : fromSettings?.trim() ? 'settings' : 'environment',
    dataDir: ctx.app.core.dataDir,
    delivery: deliveryLimitsOf(ctx.app.hub.delivery.settings.limits),
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
    'settings.set': async ({ theme, notifications, githubClientId, delivery }) => {
      if (delivery !== undefined) await ctx.app.hub.delivery.settings.update(delivery);
      if (theme !== undefined || notifications !== undefined) {
        await ctx.write((tx) => {
          if (theme !== undefined) setSetting(tx, THEME_SETTING, theme);
          if (notifications !== undefined) setSetting(tx, NOTIFICATIONS_SETTING, notifications ? 'on' : 'off');
        });
      }
      if (githubClientId !== undefined) await ctx.app.auth.setClientId(githubClientId);
      return readSettings(ctx);
    },
  };
}
