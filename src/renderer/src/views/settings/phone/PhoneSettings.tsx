// Settings → Phone (issue 37): phone access on or off (off by default), the addresses it listens
// on (a LAN address, or loopback behind the person's own reverse proxy with its external
// origin), the port, the certificate (the app's own, or the person's PEM files), pairing a
// phone, and the paired phones with when and where from they were last seen, each unpairable.
import { useEffect, useState } from 'react';
import type { PairingOffer, PhoneStatus } from '../../../../../shared/model/phone';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { useQuery } from '../../../api/useQuery';
import { ErrorState, Loading } from '../../../components/StateViews';
import { useToast } from '../../../components/Toasts';
import { PairingCode } from './PairingCode';
import { PhoneCertificate } from './PhoneCertificate';
import { PhoneDevices } from './PhoneDevices';

export function PhoneSettings() {
  const api = useApi();
  const toast = useToast();
  const status = useQuery('phone.status', {}, (e) => e.type === 'phone.changed');
  const [offer, setOffer] = useState<PairingOffer | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (status.status === 'loading') return <Loading />;
  if (status.status === 'error' && !status.data) return <ErrorState message={status.error} onRetry={status.reload} />;
  const current = status.data!;
  const apply = (next: PhoneStatus) => status.setData(() => next);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  const turn = (enabled: boolean) =>
    run(async () => {
      apply(await api.call('phone.setup', { enabled }));
      if (!enabled) setOffer(null);
      toast(enabled ? 'Phone access is on.' : 'Phone access is off: phones can reach nothing now.');
    });
  return (
    <div className="phone-settings">
      <label className="switch">
        <input type="checkbox" role="switch" checked={current.enabled} onChange={(e) => void turn(e.target.checked)} />
        <span className="switch-track" aria-hidden="true" />
        <span>{current.enabled ? 'On' : 'Off'}</span>
      </label>
      {current.enabled && current.problem && <p className="form-error" role="alert">{current.problem}</p>}
      {current.listening && (
        <p>
          Your phone reaches LetAgents at{' '}
          {current.urls.map((url, i) => (
            <span key={url}>
              {i > 0 && ', '}
              <code>{url}</code>
            </span>
          ))}
          .
        </p>
      )}
      <WhereItListens status={current} onSaved={apply} />
      {current.certificate && <PhoneCertificate certificate={current.certificate} onSaved={apply} />}
      {current.listening && !offer && (
        <div>
          <button type="button" className="btn btn-primary" onClick={() => void run(async () => setOffer(await api.call('phone.pair', {})))}>
            Pair a phone
          </button>
        </div>
      )}
      {offer && <PairingCode offer={offer} onDone={() => setOffer(null)} />}
      {error && <p className="form-error" role="alert">{error}</p>}
      <PhoneDevices devices={current.devices} onSaved={apply} />
    </div>
  );
}

/** The addresses, port and external origin; saved together (the listener moves at once when on). */
function WhereItListens({ status, onSaved }: { status: PhoneStatus; onSaved: (next: PhoneStatus) => void }) {
  const api = useApi();
  const toast = useToast();
  const [addresses, setAddresses] = useState(status.addresses);
  const [port, setPort] = useState(String(status.port));
  const [origin, setOrigin] = useState(status.externalOrigin ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setAddresses(status.addresses);
    setPort(String(status.port));
    setOrigin(status.externalOrigin ?? '');
  }, [status.addresses, status.port, status.externalOrigin]);
  const toggle = (address: string, on: boolean) => setAddresses((list) => (on ? [...list, address] : list.filter((a) => a !== address)));
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1024 || n > 65_535) return setError('Port: a whole number from 1024 to 65535.');
    try {
      onSaved(await api.call('phone.setup', { addresses, port: n, externalOrigin: origin.trim() || null }));
      setError(null);
      toast('Saved where phones reach LetAgents.');
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  const chosen = new Set(addresses);
  return (
    <form className="phone-where" onSubmit={(e) => void save(e)}>
      <fieldset>
        <legend>Listen on</legend>
        {status.available.map((a) => (
          <label key={a.address} className="checkbox">
            <input type="checkbox" checked={chosen.has(a.address)} onChange={(e) => toggle(a.address, e.target.checked)} />
            <span>
              <code>{a.address}</code> <span className="muted">{a.label}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="inline-fields">
        <label className="field field-narrow">
          <span>Port</span>
          <input inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
        </label>
        <label className="field">
          <span>
            External origin <span className="field-optional">(only behind your reverse proxy)</span>
          </span>
          <input value={origin} onChange={(e) => setOrigin(e.target.value)} placeholder="https://laptop.tailnet-name.ts.net" />
        </label>
      </div>
      <div>
        <button type="submit" className="btn">
          Save
        </button>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}
