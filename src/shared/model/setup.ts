// Connecting agent tools: per-tool state, the manual snippet and the first prompt.
import { z } from 'zod';

export const ToolId = z.enum(['claude-code', 'codex', 'cursor', 'vscode', 'gemini-cli', 'windsurf', 'claude-desktop']);

export const ToolSetup = z.object({
  tool: ToolId,
  label: z.string(),
  /** False while this tool's writer is not built yet: the card says "not available yet". */
  available: z.boolean(),
  detected: z.boolean(),
  configured: z.boolean(),
  /** The file Connect will change (the person asked to see it). */
  configPath: z.string().nullable(),
  note: z.string().nullable(),
  /**
   * Claude Code: its settings let it use LetAgents' tools without asking in its terminal first
   * (`permissions.allow` holds `mcp__letagents__*`); null for tools without such a setting.
   */
  toolsAllowed: z.boolean().nullable().default(null),
  /** Claude Code: the settings file that rule is in (~/.claude/settings.json). */
  allowSettingsPath: z.string().nullable().default(null),
});

export const SetupStatus = z.object({ tools: z.array(ToolSetup) });
export const SetupChange = z.object({
  tool: ToolSetup,
  backupPath: z.string().nullable(),
  /** The backup of the allow rule's settings file, when that changed too. */
  allowBackupPath: z.string().nullable().default(null),
});
export const ConfigSnippet = z.object({
  tool: ToolId,
  format: z.enum(['json', 'jsonc', 'toml', 'shell']),
  text: z.string(),
  /** Where to put it, in plain words. */
  instructions: z.string(),
});
export const FirstPrompt = z.object({ text: z.string() });

export type ToolId = z.infer<typeof ToolId>;
export type ToolSetup = z.infer<typeof ToolSetup>;
export type ConfigSnippet = z.infer<typeof ConfigSnippet>;
