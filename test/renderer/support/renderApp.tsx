// Renders the whole app (or one view) against the API double, with the layout numbers a
// browser would have, so the virtualised timeline renders rows in happy-dom.
import { configure, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { App } from '../../../src/renderer/src/App';
import { createApiClient, type ApiClient } from '../../../src/renderer/src/api/client';
import { ApiProvider } from '../../../src/renderer/src/api/ApiContext';
import { LiveAnnouncerProvider } from '../../../src/renderer/src/components/LiveAnnouncer';
import { ToastProvider } from '../../../src/renderer/src/components/Toasts';
import { NavigationProvider, type Route } from '../../../src/renderer/src/app/navigation';
import { AppDataProvider } from '../../../src/renderer/src/app/appData';
import { createFakeApi, type FakeApi, type FakeState } from './fakeApi';
import { inMemoryTransport, type TestTransport } from './inMemoryTransport';
import type { ApiImplementation } from '../../../src/main/api/dispatcher';

// findBy* and waitFor give up after 1 s by default: the whole app's first render in happy-dom
// takes longer than that on a loaded machine (CI; test runs sharing two cores), and failed there.
configure({ asyncUtilTimeout: 10_000 });

export interface Rendered extends RenderResult {
  api: FakeApi;
  client: ApiClient;
  transport: TestTransport;
}

export function setup(state?: FakeState, overrides: Partial<ApiImplementation> = {}, host: TestTransport['host'] = 'browser') {
  const api = createFakeApi(state, overrides);
  const transport = inMemoryTransport(api, host);
  return { api, transport, client: createApiClient(transport) };
}

/** The full app with sidebar, starting at `route`. */
export function renderApp(options: { state?: FakeState; route?: Route; overrides?: Partial<ApiImplementation>; host?: TestTransport['host'] } = {}): Rendered {
  const { api, transport, client } = setup(options.state, options.overrides, options.host);
  return { ...render(<App client={client} initialRoute={options.route} />), api, client, transport };
}

/** One view inside the providers the app gives it. */
export function renderView(view: ReactNode, options: { state?: FakeState; route?: Route; overrides?: Partial<ApiImplementation> } = {}): Rendered {
  const { api, transport, client } = setup(options.state, options.overrides);
  const result = render(
    <ApiProvider client={client}>
      <LiveAnnouncerProvider>
        <ToastProvider>
          <NavigationProvider initial={options.route}>
            <AppDataProvider>{view}</AppDataProvider>
          </NavigationProvider>
        </ToastProvider>
      </LiveAnnouncerProvider>
    </ApiProvider>,
  );
  return { ...result, api, client, transport };
}

/** What the live announcer has said so far (what a screen reader heard), oldest first. */
export function announcements(): string[] {
  return [...(document.getElementById('announcements')?.children ?? [])].map((line) => line.textContent ?? '');
}

/** The toast stack (shown on screen; spoken through the announcer instead). */
export function toasts(): HTMLElement {
  return document.querySelector<HTMLElement>('.toasts')!;
}

/** Never settles: keeps a view in its loading state. */
export const never = () => new Promise<never>(() => {});
