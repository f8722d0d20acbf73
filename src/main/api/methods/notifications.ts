// notifications.*: where notifications go (an ntfy topic or a webhook, kept in the keychain),
// which kinds, the message text or not, room levels and snoozes (issue 37); and a test send.
import { sendNotification } from '../../notify/sendNotification';
import type { ApiContext } from '../context';
import type { Methods } from './types';

type NotificationMethods = Methods<'notifications.get' | 'notifications.set' | 'notifications.setTarget' | 'notifications.setRoom' | 'notifications.test'>;

export function notificationMethods(ctx: ApiContext): NotificationMethods {
  const settings = ctx.app.notifications;
  return {
    'notifications.get': () => settings.view(),
    'notifications.set': (patch) => settings.update(patch),
    'notifications.setTarget': (input) => settings.setTarget(input),
    'notifications.setRoom': async (input) => {
      await ctx.place(input.place);
      return settings.setRoom(input);
    },
    'notifications.test': async () => {
      const target = await settings.target();
      if (!target) return { sent: false, message: 'Choose where notifications go first (an ntfy topic or a webhook).' };
      try {
        await sendNotification(target, {
          kind: 'approval', agent: 'LetAgents', room: 'a test', roomId: 'test', place: 'local',
          title: 'LetAgents: a test notification', text: 'Notifications from LetAgents reach you here.', link: null,
        });
        return { sent: true, message: 'Sent. Check your phone.' };
      } catch (error) {
        return { sent: false, message: `Not sent: ${(error as Error).message}.` };
      }
    },
  };
}
