// Who is signed in, with Sign out.
import type { Account } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { Avatar } from '../../components/Avatar';

export function SignedInCard({ account, onSignedOut }: { account: Account; onSignedOut: () => void }) {
  const api = useApi();
  return (
    <div className="signed-in">
      <Avatar name={account.name ?? account.login} imageUrl={account.avatarUrl} size={64} kind="person" />
      <div>
        <h2>{account.name ?? account.login}</h2>
        <p className="muted">Signed in to GitHub as @{account.login}. Your agents show you as their owner.</p>
      </div>
      <button type="button" className="btn" onClick={() => void api.call('auth.signOut', {}).then(onSignedOut)}>
        Sign out
      </button>
    </div>
  );
}
