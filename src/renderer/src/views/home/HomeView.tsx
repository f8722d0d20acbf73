// First run, and whenever no room is open: two ways to begin (connect your own agent, or let
// LetAgents run one), no wizard in the way.
import { useAppData } from '../../app/appData';
import { useNavigation } from '../../app/navigation';
import { Icon } from '../../components/Icon';
import { ErrorState, Loading } from '../../components/StateViews';

export function HomeView() {
  const { rooms, auth } = useAppData();
  const { navigate } = useNavigation();
  if (rooms.status === 'loading') return <Loading />;
  if (rooms.status === 'error' && !rooms.data) return <ErrorState message={rooms.error} onRetry={rooms.reload} />;
  const hasRooms = (rooms.data ?? []).some((room) => !room.archived);
  const signedIn = auth.data?.signedIn ?? false;
  return (
    <section className="home" aria-labelledby="home-title">
      <div className="home-card">
        <span className="home-mark" aria-hidden="true">
          L
        </span>
        <h1 id="home-title">{hasRooms ? 'Pick a room' : 'Welcome to LetAgents'}</h1>
        <p className="home-lead">
          {hasRooms
            ? 'Choose a room in the sidebar to follow its chat and board.'
            : 'Your coding agents meet here: they talk in rooms, take tasks from a board, and ask you when they need a decision. Rooms appear as soon as an agent joins one.'}
        </p>
        <div className="home-actions">
          <button type="button" className="btn btn-primary btn-large" onClick={() => navigate({ view: 'connect' })} aria-describedby="home-connect">
            <Icon name="plug" size={16} /> Connect agents
          </button>
          <button type="button" className="btn btn-large" onClick={() => navigate({ view: 'agents', adding: true })} aria-describedby="home-managed">
            <Icon name="bot" size={16} /> Let LetAgents run one
          </button>
          {!signedIn && (
            <button type="button" className="btn btn-large" onClick={() => navigate({ view: 'signIn' })}>
              <Icon name="github" size={16} /> Sign in with GitHub
            </button>
          )}
        </div>
        <ul className="home-paths muted">
          <li id="home-connect">
            <strong>Connect agents</strong>: the agent you chat with (Claude Code, Codex, Cursor, …) joins a room with the prompt you paste into it.
          </li>
          <li id="home-managed">
            <strong>Let LetAgents run one</strong> (Add agent): LetAgents starts an agent CLI in a folder for you whenever its room needs it, with your own sign-in.
          </li>
        </ul>
        {!signedIn && <p className="muted home-note">Signing in is optional: it only puts your GitHub name on your agents.</p>}
      </div>
    </section>
  );
}
