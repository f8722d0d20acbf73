// Diagnostics: runs the same checks as `letagents-desktop doctor` and lists them.
import { useState } from 'react';
import type { DoctorReport } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';

const STATUS_WORDS = { ok: 'OK', warn: 'Check', fail: 'Problem' } as const;

export function Diagnostics() {
  const api = useApi();
  const [report, setReport] = useState<DoctorReport | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setRunning(true);
    try {
      setReport(await api.call('app.doctor', {}));
      setError(null);
    } catch (thrown) {
      setError(errorMessage(thrown));
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className="diagnostics">
      <button type="button" className="btn" onClick={() => void run()} disabled={running}>
        <Icon name="refresh" size={14} /> {running ? 'Running…' : report ? 'Run again' : 'Run diagnostics'}
      </button>
      {error && <p className="form-error" role="alert">{error}</p>}
      {report && (
        <ul className="checks">
          {report.checks.map((check) => (
            <li key={check.id} className={`check check-${check.status}`}>
              <span className="check-status">{STATUS_WORDS[check.status]}</span>
              <div>
                <strong>{check.title}</strong>
                <p className="muted">{check.detail}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
