// @vitest-environment happy-dom
// The composer: Enter sends, Shift+Enter adds a line, @ and task_ complete, failures keep text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Composer } from '../../src/renderer/src/views/chat/Composer';
import { ApiError } from '../../src/renderer/src/api/client';
import { applyCompletion, findCompletionQuery, mentionOptions, taskOptions } from '../../src/renderer/src/lib/completion';

afterEach(cleanup);

const AGENTS = ['Juniper', 'Cedar', 'MapleRidge'];
const TASKS = [
  { number: 12, title: 'Retry logic for the payment webhook' },
  { number: 14, title: 'Fix flaky CartTotals test' },
  { number: 3, title: 'Set up CI' },
];

function renderComposer(onSend = vi.fn(async () => {})) {
  render(<Composer label="Message room" placeholder="Message room" agentNames={AGENTS} tasks={TASKS} onSend={onSend} />);
  return { box: screen.getByRole('combobox', { name: 'Message room' }) as HTMLTextAreaElement, onSend };
}

describe('composer keys', () => {
  it('Enter sends the text and clears the box', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, 'Looks good{Enter}');
    expect(onSend).toHaveBeenCalledWith('Looks good');
    expect(box.value).toBe('');
  });

  it('Shift+Enter starts a new line instead of sending', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box.value).toBe('line one\nline two');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('does not send blank text', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('keeps the text and shows why when sending fails', async () => {
    const { box } = renderComposer(vi.fn(async () => { throw new ApiError('R4', 'This room is archived.'); }));
    await userEvent.type(box, 'hello{Enter}');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'This room is archived.');
    expect(box.value).toBe('hello');
  });
});

describe('composer completion', () => {
  it('@ lists agent names and @all; Enter picks the highlighted one', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, 'ping @');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.querySelector('.completion-label')?.textContent)).toEqual(['@Cedar', '@Juniper', '@MapleRidge', '@all']);
    await userEvent.type(box, 'ju{Enter}');
    expect(box.value).toBe('ping @Juniper ');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('arrow keys move through the suggestions and Tab picks', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, '@');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getAllByRole('option')[2].getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Tab}');
    expect(box.value).toBe('@MapleRidge ');
  });

  it('task_ lists task ids newest first with their titles', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, 'see task_1');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['task_14Fix flaky CartTotals test', 'task_12Retry logic for the payment webhook']);
    await userEvent.keyboard('{Enter}');
    expect(box.value).toBe('see task_14 ');
  });

  it('Escape closes the suggestions and Enter then sends', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, 'hi @al');
    await userEvent.keyboard('{Escape}{Enter}');
    expect(onSend).toHaveBeenCalledWith('hi @al');
  });
});

describe('completion rules', () => {
  it('finds the mention or task id being typed at the caret only', () => {
    expect(findCompletionQuery('hello @Ju', 9)).toEqual({ kind: 'mention', start: 6, typed: 'Ju' });
    expect(findCompletionQuery('see task_4', 10)).toEqual({ kind: 'task', start: 4, typed: '4' });
    expect(findCompletionQuery('mail ada@example', 16)).toBeNull();
    expect(findCompletionQuery('@Ju and more', 12)).toBeNull();
  });

  it('matches names case-insensitively by prefix', () => {
    expect(mentionOptions('MA', AGENTS).map((o) => o.insert)).toEqual(['@MapleRidge']);
    expect(mentionOptions('a', AGENTS).map((o) => o.insert)).toEqual(['@all']);
    expect(taskOptions('3', TASKS).map((o) => o.insert)).toEqual(['task_3']);
  });

  it('replaces the token and adds one space, keeping the text after the caret', () => {
    const query = findCompletionQuery('hi @ju there', 6)!;
    expect(applyCompletion('hi @ju there', 6, query, { insert: '@Juniper', label: '', detail: '' })).toEqual({ text: 'hi @Juniper there', caret: 11 });
  });
});
