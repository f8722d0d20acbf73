// phone.*: the phone listener and paired phones (issue 37), through the host's PhoneControl.
// Only the person at this computer reaches these: a phone's own calls are refused before this.
import { appErrors } from '../../domain/errors';
import type { ApiContext } from '../context';
import type { PhoneControl } from '../phoneControl';
import type { Methods } from './types';

type PhoneMethods = Methods<'phone.status' | 'phone.setup' | 'phone.certificate' | 'phone.pair' | 'phone.revoke'>;

export function phoneMethods(ctx: ApiContext): PhoneMethods {
  const phone = (): PhoneControl => {
    if (!ctx.host.phone) throw appErrors.notAvailable('Phone access runs with the app itself (the desktop app or `letagents-desktop serve`).');
    return ctx.host.phone;
  };
  return {
    'phone.status': () => phone().status(),
    'phone.setup': (patch) => phone().setup(patch),
    'phone.certificate': (choice) => phone().certificate(choice),
    'phone.pair': ({ address }) => phone().pair(address),
    'phone.revoke': ({ deviceId }) => phone().revoke(deviceId),
  };
}
