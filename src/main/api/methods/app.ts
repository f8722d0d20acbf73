// app.*: version and who the person posts as, the doctor checks, and what the host opens
// outside the app (https: links only, and the data folder).
import { safeExternalUrl } from '../../../shared/externalLinks';
import { appErrors } from '../../domain/errors';
import type { ApiContext } from '../context';
import { runDoctorChecks } from './doctor';
import type { Methods } from './types';

type AppMethods = Methods<'app.info' | 'app.doctor' | 'app.openExternal' | 'app.openDataFolder'>;

export function appMethods(ctx: ApiContext): AppMethods {
  const { app, host } = ctx;
  return {
    'app.info': async () => {
      const owner = await app.auth.ownerIdentity();
      return {
        version: app.version,
        host: ctx.caller.kind === 'phone' ? 'phone' : (host.kind ?? 'browser'),
        device: ctx.caller.kind === 'phone' ? ctx.caller.deviceName : null,
        platform: process.platform,
        person: { name: owner.ownerLabel, source: owner.githubLogin ? 'github' : 'os' },
      };
    },

    'app.doctor': () => runDoctorChecks(app),

    'app.openExternal': async ({ url }) => {
      const safe = safeExternalUrl(url);
      if (safe === null) throw appErrors.invalidInput('Only https: links open outside the app.');
      return { opened: host.openExternal ? await host.openExternal(safe) : false };
    },

    'app.openDataFolder': async () => {
      if (app.core.dataDir === ':memory:' || !host.openPath) return { opened: false };
      return { opened: await host.openPath(app.core.dataDir) };
    },
  };
}
