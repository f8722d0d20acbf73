// GitHub sign-in (optional): it only sets the owner name agents show. States: signed in,
// keychain unavailable, no client id, ready, code shown while waiting, denied, expired, error.
import type { AuthStatus } from '../../../../shared/types';
import { useAppData } from '../../app/appData';
import { Icon } from '../../components/Icon';
import { ErrorState, Loading } from '../../components/StateViews';
import { DeviceCodePanel } from './DeviceCodePanel';
import { KeychainUnavailable, NoClientId } from './SignInProblems';
import { SignedInCard } from './SignedInCard';
import { useDeviceFlow } from './useDeviceFlow';

export function SignInView() {
  const { auth, info } = useAppData();
  const refresh = () => {
    auth.reload();
    info.reload();
  };
  let body;
  if (auth.status === 'loading') body = <Loading />;
  else if (auth.status === 'error' && !auth.data) body = <ErrorState message={auth.error} onRetry={auth.reload} />;
  else body = <SignInBody status={auth.data!} onChanged={refresh} />;
  return (
    <section className="page page-narrow" aria-labelledby="signin-title">
      <header className="page-header">
        <h1 id="signin-title">GitHub sign-in</h1>
        <p className="muted">Optional. Signing in puts your GitHub name on your agents and your messages. LetAgents works without it.</p>
      </header>
      {body}
    </section>
  );
}

function SignInBody({ status, onChanged }: { status: AuthStatus; onChanged: () => void }) {
  if (status.signedIn && status.account) return <SignedInCard account={status.account} onSignedOut={onChanged} />;
  if (!status.keychain.available) return <KeychainUnavailable message={status.keychain.message} />;
  if (!status.clientConfigured) return <NoClientId onSaved={onChanged} />;
  return <DeviceFlowSteps status={status} onAuthorized={onChanged} />;
}

function DeviceFlowSteps({ status, onAuthorized }: { status: AuthStatus; onAuthorized: () => void }) {
  const { state, start, cancel } = useDeviceFlow(status.pending, onAuthorized);
  if (state.step === 'waiting') return <DeviceCodePanel flow={state.flow} onCancel={() => void cancel()} />;
  if (state.step === 'starting') return <Loading label="Asking GitHub for a code…" />;
  if (state.step === 'authorized') return <Loading label="Signed in. Loading your account…" />;
  const problem =
    state.step === 'denied' ? 'The sign-in was denied on GitHub.' :
    state.step === 'expired' ? 'The code expired before it was approved.' :
    state.step === 'error' ? state.message : null;
  return (
    <div className="signin-start">
      {problem && (
        <p className="notice notice-error" role="alert">
          <Icon name="alert" size={16} /> {problem}
        </p>
      )}
      <button type="button" className="btn btn-primary btn-large" onClick={() => void start()}>
        <Icon name="github" size={18} /> {problem ? 'Try again' : 'Sign in with GitHub'}
      </button>
      <p className="muted">You get a one-time code to enter on GitHub. LetAgents keeps the sign-in in your system keychain only.</p>
    </div>
  );
}
