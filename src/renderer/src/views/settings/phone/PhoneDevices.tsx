// The paired phones (issue 37): name, when and where from each was last seen, whether its page
// is open now; Unpair closes its open page at once and its key opens nothing any more.
import { useState } from 'react';
import type { PhoneDevice, PhoneStatus } from '../../../../../shared/model/phone';
import { useApi } from '../../../api/ApiContext';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Time } from '../../../components/Time';
import { useToast } from '../../../components/Toasts';

export function PhoneDevices({ devices, onSaved }: { devices: PhoneDevice[]; onSaved: (next: PhoneStatus) => void }) {
  const api = useApi();
  const toast = useToast();
  const [unpairing, setUnpairing] = useState<PhoneDevice | null>(null);
  if (devices.length === 0) return <p className="muted">No phones are paired.</p>;
  return (
    <>
      <ul className="phone-devices" aria-label="Paired phones">
        {devices.map((device) => (
          <li key={device.deviceId}>
            <div className="phone-device-text">
              <strong>{device.name}</strong>
              {device.connected && <span className="pill pill-ok">Open now</span>}
              <span className="muted">
                Last seen {device.lastSeenAt ? <Time iso={device.lastSeenAt} /> : 'never'} from {device.lastSeenFrom ?? device.pairedFrom}
              </span>
            </div>
            <button type="button" className="btn" onClick={() => setUnpairing(device)}>
              Unpair
            </button>
          </li>
        ))}
      </ul>
      {unpairing && (
        <ConfirmDialog
          title={`Unpair ${unpairing.name}?`}
          confirmLabel="Unpair"
          danger
          onConfirm={async () => {
            onSaved(await api.call('phone.revoke', { deviceId: unpairing.deviceId }));
            toast(`Unpaired ${unpairing.name}.`);
            setUnpairing(null);
          }}
          onClose={() => setUnpairing(null)}
        >
          Its open page closes now, and it can reach nothing until you pair it again.
        </ConfirmDialog>
      )}
    </>
  );
}
