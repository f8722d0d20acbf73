// A card per agent tool: detected or not, set up or not (its MCP settings name LetAgents), whether
// an agent has connected through it, the file Connect changes, and Connect / Disconnect / Copy
// config (named with the tool, for screen readers). Tools whose writer is not built yet say so.
// Each tool has its own mark (initials on a colour: no product's logo), and only the card the
// page suggests first has the primary button (issue 27).
import { useState } from 'react';
import type { ConfigSnippet, ToolId, ToolSetup } from '../../../../shared/types';
import { CLAUDE_CHANNEL_COMMAND } from '../../../../shared/model/workers';
import { listOf } from '../../../../shared/words';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useToast } from '../../components/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SnippetDialog } from './SnippetDialog';

/** Claude Code loads our MCP server as a channel (issue 26): pushes then reach an agent at its prompt. */

/** Initials and one of the avatar hues, distinct per tool. */
const MARKS: Readonly<Record<ToolId, { text: string; hue: number }>> = {
  'claude-code': { text: 'CC', hue: 2 },
  codex: { text: 'Cx', hue: 0 },
  cursor: { text: 'Cu', hue: 1 },
  vscode: { text: 'VS', hue: 4 },
  'gemini-cli': { text: 'Ge', hue: 3 },
  windsurf: { text: 'Ws', hue: 5 },
  'claude-desktop': { text: 'CD', hue: 7 },
};

/** The tool Connect suggests first: installed, not connected yet, with one-click set-up. */
export function suggestedTool(tools: readonly ToolSetup[]): ToolId | undefined {
  return tools.find((tool) => tool.available && tool.detected && !tool.configured)?.tool;
}

/** Which of the tool's agents have connected (the roster's, by its IDE label): online now, or ever. */
export interface ToolAgents {
  readonly online: readonly string[];
  readonly seen: readonly string[];
}

/**
 * What the card says of the tool's agents: set up is not connected (issue 35: "Connected" read
 * as if an agent had), so a set-up tool says whether an agent has come through it yet.
 */
function agentsLine(tool: ToolSetup, agents: ToolAgents): string | null {
  if (agents.online.length > 0) return `Connected now: ${listOf(agents.online)}.`;
  if (agents.seen.length > 0) return `Its agents connected before (${listOf(agents.seen)}); none is connected now.`;
  if (!tool.configured) return null;
  return `No agent has connected through it yet: restart ${tool.label}, open it in your project and paste the prompt below.`;
}

export function ToolCard({ tool, agents, primary = false, onChanged }: { tool: ToolSetup; agents: ToolAgents; primary?: boolean; onChanged: (tool: ToolSetup) => void }) {
  const api = useApi();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [snippet, setSnippet] = useState<ConfigSnippet | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Claude Code: allow our tools in its settings too (asked here, on by default, shown before Connect).
  const [allowTools, setAllowTools] = useState(true);
  const canAllow = tool.toolsAllowed !== null && tool.allowSettingsPath !== null;
  const change = async (method: 'setup.install' | 'setup.uninstall', allow = canAllow && allowTools) => {
    setBusy(true);
    try {
      const result = await api.call(method, method === 'setup.install' && allow ? { tool: tool.tool, allowTools: true } : { tool: tool.tool });
      onChanged(result.tool);
      const backups = [result.backupPath, result.allowBackupPath].filter((b): b is string => b !== null);
      const backup = backups.length > 0 ? ` The old ${backups.length === 1 ? 'file is' : 'files are'} saved as ${backups.join(' and ')}.` : '';
      // Already connected: this Connect only added the allow rule.
      const connected = tool.configured
        ? `${tool.label} may now use LetAgents' tools without asking.`
        : `LetAgents is in ${tool.label}'s settings. Restart ${tool.label} and paste the prompt below; this card says when its agent connects.`;
      toast(method === 'setup.install' ? `${connected}${backup}` : `LetAgents is out of ${tool.label}'s settings.${backup}`);
    } catch (error) {
      toast(errorMessage(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  const showSnippet = () =>
    api.call('setup.snippet', { tool: tool.tool }).then(setSnippet, (error: unknown) => toast(errorMessage(error), 'error'));

  const line = agentsLine(tool, agents);
  return (
    <li className={tool.configured ? 'tool-card configured' : 'tool-card'}>
      <header className="tool-head">
        <span className={`tool-logo hue-${MARKS[tool.tool].hue}`} aria-hidden="true">{MARKS[tool.tool].text}</span>
        <h3>{tool.label}</h3>
      </header>
      <div className="tool-state">
        <span className={tool.detected ? 'pill pill-ok' : 'pill'}>{tool.detected ? 'Installed' : 'Not installed'}</span>
        <span className={tool.configured ? 'pill pill-accent' : 'pill'}>{tool.configured ? 'Set up' : 'Not set up'}</span>
        {agents.online.length > 0 && <span className="pill pill-ok">Agent connected</span>}
      </div>
      {line && <p className={agents.online.length > 0 ? 'tool-agents' : 'tool-agents muted'}>{line}</p>}
      {tool.configPath && (
        <p className="tool-path" title={tool.configPath}>
          <span className="muted">Changes</span> <code>{tool.configPath}</code>
        </p>
      )}
      {tool.note && <p className="muted tool-note">{tool.note}</p>}
      {tool.tool === 'claude-code' && (
        <p className="muted tool-note">
          So a mention reaches it while it sits at its prompt, start it with <code>{CLAUDE_CHANNEL_COMMAND}</code> (Claude Code 2.1.80 or later, signed in
          with a claude.ai account: channels are a research preview and refuse API-key sign-in).
        </p>
      )}
      {canAllow && !tool.configured && tool.available && (
        <label className="tool-allow">
          <input type="checkbox" checked={allowTools} onChange={(event) => setAllowTools(event.target.checked)} />{' '}
          Let {tool.label} use LetAgents' tools without asking each time (adds <code>mcp__letagents__*</code> to <code>permissions.allow</code> in{' '}
          <code>{tool.allowSettingsPath}</code>; without it {tool.label} asks in its terminal before each one)
        </label>
      )}
      {canAllow && tool.configured && tool.toolsAllowed === false && (
        <p className="muted tool-note">
          {tool.label} asks in its terminal before each LetAgents tool.{' '}
          <button type="button" className="btn btn-ghost" onClick={() => void change('setup.install', true)} disabled={busy}>
            Allow LetAgents' tools
          </button>
        </p>
      )}
      {!tool.available ? (
        <p className="muted tool-note">One-click set-up for {tool.label} is not available yet.</p>
      ) : (
        <div className="tool-actions">
          {tool.configured ? (
            <button type="button" className="btn" onClick={() => setConfirming(true)} disabled={busy} aria-label={`Disconnect ${tool.label}`}>
              Disconnect
            </button>
          ) : (
            <button type="button" className={primary ? 'btn btn-primary' : 'btn'} onClick={() => void change('setup.install')} disabled={busy} aria-label={`Connect ${tool.label}`}>
              Connect
            </button>
          )}
          <button type="button" className="btn btn-ghost" onClick={() => void showSnippet()} aria-label={`Copy config for ${tool.label}`}>
            Copy config
          </button>
        </div>
      )}
      {snippet && <SnippetDialog label={tool.label} snippet={snippet} onClose={() => setSnippet(null)} />}
      {confirming && (
        <ConfirmDialog title={`Disconnect ${tool.label}?`} confirmLabel="Disconnect" onConfirm={() => change('setup.uninstall')} onClose={() => setConfirming(false)}>
          LetAgents' entry is removed from {tool.label}'s settings; nothing else in that file changes. Its agents stop reaching LetAgents after a restart.
        </ConfirmDialog>
      )}
    </li>
  );
}
