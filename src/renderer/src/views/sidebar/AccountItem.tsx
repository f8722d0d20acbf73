// The account line at the bottom of the sidebar: GitHub avatar and name, or "Sign in".
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { useAppData } from '../../app/appData';

export function AccountItem({ current, onOpen }: { current: boolean; onOpen: () => void }) {
  const { auth, info } = useAppData();
  const account = auth.data?.signedIn ? auth.data.account : null;
  const name = account ? account.name ?? account.login : info.data?.person.name;
  return (
    <button type="button" className="nav-item account-item" aria-current={current ? 'page' : undefined} onClick={onOpen} title={account ? `${name} (@${account.login})` : undefined}>
      {account ? <Avatar name={name ?? account.login} imageUrl={account.avatarUrl} size={22} kind="person" /> : <Icon name="github" size={16} />}
      <span className="nav-label">
        <span className="truncate">{account ? name : 'Sign in'}</span>
        {account && <span className="nav-sub truncate">@{account.login}</span>}
      </span>
    </button>
  );
}
