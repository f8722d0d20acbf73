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
});

export const SetupStatus = z.object({ tools: z.array(ToolSetup) });
export const SetupChange = z.object({ tool: ToolSetup, backupPath: z.string().nullable() });
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
