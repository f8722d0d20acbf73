// The app: API client, live announcements, toasts, undo, navigation and shared data around the shell.
import type { ApiClient } from './api/client';
import { ApiProvider } from './api/ApiContext';
import { AppDataProvider } from './app/appData';
import { FollowShellRequests, NavigationProvider, type Route } from './app/navigation';
import { Shell } from './app/Shell';
import { LiveAnnouncerProvider } from './components/LiveAnnouncer';
import { ToastProvider } from './components/Toasts';
import { UndoProvider } from './components/Undo';

export function App({ client, initialRoute }: { client: ApiClient; initialRoute?: Route }) {
  return (
    <ApiProvider client={client}>
      <LiveAnnouncerProvider>
        <ToastProvider>
          <UndoProvider>
            <NavigationProvider initial={initialRoute}>
              <FollowShellRequests />
              <AppDataProvider>
                <Shell />
              </AppDataProvider>
            </NavigationProvider>
          </UndoProvider>
        </ToastProvider>
      </LiveAnnouncerProvider>
    </ApiProvider>
  );
}
