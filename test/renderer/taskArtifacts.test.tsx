// @vitest-environment happy-dom
// A task's links (issue 15 item 9): only an https: link is rendered as a link; a link on this
// machine is shown as text; javascript:, file:, data: and other links (stored before the app
// refused them) are never shown.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WorkflowArtifact } from '../../src/shared/types';
import { TaskArtifacts } from '../../src/renderer/src/views/board/TaskArtifacts';
import { renderView } from './support/renderApp';

afterEach(cleanup);

const pr = (url: string, title?: string): WorkflowArtifact => ({ provider: 'github', kind: 'pull_request', url, ...(title ? { title } : {}) });

describe('task links', () => {
  it('renders only https: links as links, and opens them through the safe rule', async () => {
    const view = renderView(
      <TaskArtifacts
        artifacts={[
          pr('https://github.com/o/r/pull/1', 'The fix'),
          pr('javascript:alert(document.cookie)', 'Click me'),
          pr('file:///etc/passwd'),
          pr('data:text/html,<script>alert(1)</script>', 'Data'),
          pr('http://evil.example/x', 'Plain http'),
          pr('http://127.0.0.1:3000/preview', 'Preview'),
        ]}
      />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://github.com/o/r/pull/1']);
    expect(screen.getByText('Click me').closest('a')).toBeNull();
    expect(document.body.innerHTML).not.toMatch(/javascript:|file:|data:|evil\.example/);
    expect(screen.getByText('http://127.0.0.1:3000/preview').tagName).toBe('CODE');
    await userEvent.click(links[0]);
    expect(view.api.calls.find((c) => c.method === 'app.openExternal')?.input).toEqual({ url: 'https://github.com/o/r/pull/1' });
  });
});
