// Tool calls in the activity log as people read them (issue 35): no line of JSON, no worktree
// path in full.
import { describe, expect, it } from 'vitest';
import { relativeToFolder, toolCallText } from '../../../src/main/agents/activityWords';

const TREE = '/home/ada/.config/LetAgents/worktrees/agent_1/checkout-service';

describe('a tool call in the activity log', () => {
  it('names the file a file tool works on, relative to the folder the agent works in', () => {
    expect(toolCallText('Write', JSON.stringify({ file_path: `${TREE}/docs/notes.md`, content: '# Notes\n' }), TREE)).toBe('Write docs/notes.md');
    expect(toolCallText('Read', JSON.stringify({ file_path: '/etc/hosts' }), TREE)).toBe('Read /etc/hosts');
    expect(toolCallText('Edit', JSON.stringify({ file_path: `${TREE}/a.ts`, old_string: 'x', new_string: 'y' }), TREE)).toBe('Edit a.ts');
  });

  it('gives a command as it was run, and a message in quotes', () => {
    expect(toolCallText('Bash', JSON.stringify({ command: `cd ${TREE} && npm test`, description: 'Run the tests' }), TREE)).toBe('Bash: cd . && npm test');
    expect(toolCallText('send_message', JSON.stringify({ worker_id: 'wk_0123456789abcdef', text: 'The notes are ready.' }), TREE)).toBe('send_message: "The notes are ready."');
    expect(toolCallText('register_agent_session', JSON.stringify({ worker_id: 'wk_0123456789abcdef' }), TREE)).toBe('register_agent_session');
    expect(toolCallText('claim_task', JSON.stringify({ worker_id: 'wk_1', task_id: 'task_7' }), TREE)).toBe('claim_task: task_7');
  });

  it('keeps text that is not JSON (a preview cut short), with paths made relative', () => {
    expect(toolCallText('shell', `ls ${TREE}/src`, TREE)).toBe('shell: ls src');
    expect(toolCallText('Write', `{"file_path":"${TREE}/x.md","content":"…`, TREE)).toBe('Write: {"file_path":"x.md","content":"…');
    expect(toolCallText('list_tasks', '', TREE)).toBe('list_tasks');
  });

  it('leaves a folder that only starts like the worktree alone', () => {
    expect(relativeToFolder(`${TREE}-2/x and ${TREE}`, TREE)).toBe(`${TREE}-2/x and .`);
  });
});
