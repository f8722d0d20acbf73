// @vitest-environment happy-dom
// The desktop shell's notification and tray clicks reach the window as `app.open` events.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { renderApp } from './support/renderApp';
import { demoState } from './support/demoSeed';

afterEach(cleanup);

describe('requests from the desktop shell', () => {
  it('a click on a "needs you" notification opens the Needs you view', async () => {
    const { api } = renderApp({ state: demoState(), route: { view: 'settings' } });
    await screen.findByRole('radio', { name: 'Dark' });
    act(() => api.emit({ type: 'app.open', route: { view: 'needsYou' } }));
    expect(await screen.findByRole('heading', { name: /needs you/i })).toBeTruthy();
  });
});
