// What the app API asks of the phone listener (issue 37): the host runs it (src/main/phone) and
// hands it over as ApiHost.phone, so the API needs no import from the hosting layer above it.
import type { PairingOffer, PhoneCertificateChoice, PhoneSetupPatch, PhoneStatus } from '../../shared/model/phone';

export interface PhoneControl {
  status(): Promise<PhoneStatus>;
  setup(patch: PhoneSetupPatch): Promise<PhoneStatus>;
  certificate(choice: PhoneCertificateChoice): Promise<PhoneStatus>;
  /** A one-time pairing code for the link at `address` (default: the first chosen address, or the external origin). */
  pair(address?: string): Promise<PairingOffer>;
  revoke(deviceId: string): Promise<PhoneStatus>;
}
