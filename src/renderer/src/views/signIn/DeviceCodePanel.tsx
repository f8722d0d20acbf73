// The one-time code, large, with Copy code and Open GitHub, the countdown, and
// "Waiting for approval…".
import type { DeviceFlow } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { openExternal } from '../../lib/openExternal';
import { CountdownBar } from './CountdownBar';

export function DeviceCodePanel({ flow, onCancel }: { flow: DeviceFlow; onCancel: () => void }) {
  const api = useApi();
  return (
    <div className="device-code">
      <p className="step-text">
        <span className="step-number">1</span> Copy this code
      </p>
      <div className="user-code" aria-label={`Your code is ${flow.userCode.split('').join(' ')}`}>
        {flow.userCode}
      </div>
      <div className="device-actions">
        <CopyButton text={flow.userCode} label="Copy code" className="btn" />
        <button type="button" className="btn btn-primary" onClick={() => void openExternal(api, flow.verificationUri)}>
          <Icon name="external" size={14} /> Open GitHub
        </button>
      </div>
      <p className="step-text">
        <span className="step-number">2</span> Paste it on GitHub and approve LetAgents
      </p>
      <CountdownBar expiresAt={flow.expiresAt} totalSeconds={flow.expiresIn} />
      <p className="waiting" role="status">
        <span className="spinner" aria-hidden="true" /> Waiting for approval…
      </p>
      <button type="button" className="link-button" onClick={onCancel}>
        Cancel sign-in
      </button>
    </div>
  );
}
