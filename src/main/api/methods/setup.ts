// setup.*: the Connect agents screen — a card per agent tool, connect/disconnect of our MCP
// entry (the old file backed up), the snippet for manual set-up, and the first prompt.
import type { ToolSetup } from '../../../shared/model/setup';
import { appErrors } from '../../domain/errors';
import { requireRoom } from '../../domain/rooms/rooms';
import type { AgentToolStatus } from '../../setup/setupService';
import type { ApiContext } from '../context';
import type { Methods } from './types';

type SetupMethods = Methods<'setup.status' | 'setup.install' | 'setup.uninstall' | 'setup.snippet' | 'setup.firstPrompt'>;

function noteOf(status: AgentToolStatus): string | null {
  if (status.problem) return status.problem;
  if (status.configured && !status.entryMatches) return 'Connected with a different LetAgents command; Connect updates it.';
  return null;
}

export function toToolSetup(status: AgentToolStatus): ToolSetup {
  return {
    tool: status.id,
    label: status.name,
    available: true,
    detected: status.detected,
    configured: status.configured,
    configPath: status.configPath,
    note: noteOf(status),
    toolsAllowed: status.toolsAllowed,
    allowSettingsPath: status.allowSettingsPath,
  };
}

export function setupMethods(ctx: ApiContext): SetupMethods {
  const { setup } = ctx.app;
  const toolStatus = async (toolId: string): Promise<ToolSetup> => {
    const status = (await setup.status()).find((s) => s.id === toolId);
    if (!status) throw appErrors.notFound(`Agent tool "${toolId}"`);
    return toToolSetup(status);
  };
  return {
    'setup.status': async () => ({ tools: (await setup.status()).map(toToolSetup) }),

    'setup.install': async ({ tool, allowTools }) => {
      const change = await setup.connect(tool, { allowTools });
      return { tool: await toolStatus(tool), backupPath: change.backupPath, allowBackupPath: change.allowRule?.backupPath ?? null };
    },

    'setup.uninstall': async ({ tool }) => {
      const change = await setup.disconnect(tool);
      return { tool: await toolStatus(tool), backupPath: change.backupPath, allowBackupPath: change.allowRule?.backupPath ?? null };
    },

    'setup.snippet': ({ tool }) => {
      const snippet = setup.configSnippet(tool);
      const instructions =
        snippet.format === 'toml'
          ? `Add this table to ${snippet.configPath} (create the file if it is missing), then restart the tool.`
          : `Merge this into ${snippet.configPath} (create the file if it is missing), keeping any other servers there, then restart the tool.`;
      return { tool, format: snippet.format, text: snippet.text, instructions };
    },

    'setup.firstPrompt': async ({ roomId, place: asked }) => {
      const place = await ctx.place(asked);
      if (roomId !== undefined) await ctx.read((q) => requireRoom(q, roomId), place);
      return { text: setup.firstPrompt(roomId, place) };
    },
  };
}
