// The phone listener's certificate (issue 37): whose it is, its fingerprint (the phone's pairing
// page shows the same), and the choice of the person's own PEM files or the app's own.
import { useState } from 'react';
import type { PhoneStatus } from '../../../../../shared/model/phone';
import { useApi } from '../../../api/ApiContext';
import { Form } from '../../../components/Form';
import { useToast } from '../../../components/Toasts';

export function PhoneCertificate({ certificate, onSaved }: { certificate: NonNullable<PhoneStatus['certificate']>; onSaved: (next: PhoneStatus) => void }) {
  const api = useApi();
  const toast = useToast();
  const [choosing, setChoosing] = useState(false);
  const [certFile, setCertFile] = useState('');
  const [keyFile, setKeyFile] = useState('');
  return (
    <div className="phone-certificate">
      <p>
        Certificate: {certificate.source === 'person' ? 'yours' : "the app's own"}, for {certificate.names.join(', ')}. SHA-256 fingerprint:
      </p>
      <code className="fingerprint">{certificate.fingerprint}</code>
      {choosing ? (
        <Form
          submitLabel="Use these files"
          check={() => (certFile.trim() && keyFile.trim() ? null : 'Give the certificate file and its key file (PEM).')}
          onSubmit={async () => {
            onSaved(await api.call('phone.certificate', { use: 'person', certFile: certFile.trim(), keyFile: keyFile.trim() }));
            setChoosing(false);
            toast('Phones are now served your certificate.');
          }}
          onCancel={() => setChoosing(false)}
        >
          <label className="field">
            <span>Certificate file (PEM)</span>
            <input value={certFile} onChange={(e) => setCertFile(e.target.value)} placeholder="/home/you/certs/laptop.crt" />
          </label>
          <label className="field">
            <span>Private key file (PEM, not encrypted)</span>
            <input value={keyFile} onChange={(e) => setKeyFile(e.target.value)} placeholder="/home/you/certs/laptop.key" />
          </label>
        </Form>
      ) : (
        <div className="inline-form">
          <button type="button" className="btn" onClick={() => setChoosing(true)}>
            Use my own certificate…
          </button>
          {certificate.source === 'person' && (
            <button type="button" className="btn" onClick={() => void api.call('phone.certificate', { use: 'app' }).then(onSaved)}>
              Use the app's certificate
            </button>
          )}
        </div>
      )}
    </div>
  );
}
