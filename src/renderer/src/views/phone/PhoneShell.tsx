// A paired phone's page (issue 37): the same views at phone size, Needs you first, and a tab
// bar at the bottom, where a thumb reaches it: Needs you · Rooms · Agents · Automations. Nothing of the
// desktop's settings, teams or Connect agents (the server refuses those for a phone anyway).
import { useAppData } from '../../app/appData';
import { useNavigation, type Route } from '../../app/navigation';
import { ConnectionBanner } from '../../app/ConnectionBanner';
import { Icon, type IconName } from '../../components/Icon';
import { ToastSlot } from '../../components/Toasts';
import { waitsForPerson } from '../../../../shared/model/needsYou';
import { NeedsYouView } from '../needsYou/NeedsYouView';
import { useNeedsYouAnnouncements } from '../needsYou/useNeedsYouAnnouncements';
import { PhoneAgents } from './PhoneAgents';
import { PhoneAutomations } from './PhoneAutomations';
import { PhoneRoom } from './PhoneRoom';
import { PhoneRooms } from './PhoneRooms';
import { usePhoneNotifications } from './usePhoneNotifications';

interface Tab {
  readonly view: 'needsYou' | 'home' | 'agents' | 'automations';
  readonly label: string;
  readonly icon: IconName;
}

const TABS: readonly Tab[] = [
  { view: 'needsYou', label: 'Needs you', icon: 'inbox' },
  { view: 'home', label: 'Rooms', icon: 'hash' },
  { view: 'agents', label: 'Agents', icon: 'bot' },
  { view: 'automations', label: 'Automations', icon: 'clock' },
];

/** Which tab a route belongs to (a room is under Rooms). */
const tabOf = (route: Route): Tab['view'] => (route.view === 'agents' || route.view === 'needsYou' || route.view === 'automations' ? route.view : 'home');

export function PhoneShell() {
  const { route, navigate } = useNavigation();
  const { needsYou } = useAppData();
  const waiting = needsYou.data?.items.filter(waitsForPerson) ?? [];
  useNeedsYouAnnouncements(needsYou.data?.items);
  usePhoneNotifications(needsYou.data?.items);
  const current = tabOf(route);
  return (
    <div className="app phone">
      <main className="phone-main" id="main">
        <ConnectionBanner />
        {route.view === 'needsYou' && <NeedsYouView />}
        {route.view === 'room' && <PhoneRoom route={route} />}
        {route.view === 'agents' && <PhoneAgents />}
        {route.view === 'automations' && <PhoneAutomations />}
        {tabOf(route) === 'home' && route.view !== 'room' && <PhoneRooms />}
      </main>
      {/* Two notices at most, above the tab bar and never over it (the rest wait their turn). */}
      <ToastSlot shownAtOnce={2} />
      <nav className="phone-nav" aria-label="LetAgents">
        <ul>
          {TABS.map((tab) => (
            <li key={tab.view}>
              <button type="button" className="phone-tab" aria-current={current === tab.view ? 'page' : undefined} onClick={() => navigate({ view: tab.view })}>
                <Icon name={tab.icon} size={22} />
                <span>{tab.label}</span>
                {tab.view === 'needsYou' && waiting.length > 0 && (
                  <span className="count" aria-label={`${waiting.length} waiting`}>
                    {waiting.length}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
