// The interactive_desktop tool surface (mcp-tools.md §1), by group: the one list of tools
// (tests that cover every tool, and the count the docs give, derive from it), the tool
// profiles and their budgets. `full` lists every tool; `core` (mcp --tools core) lists what an
// agent that only chats and works the board needs, to keep tools/list small in its context.
// Adding a tool: docs/development.md.
import type { ToolProfile } from '../connection';
import type { ToolDefinition, ToolShape } from '../toolKit';
import { checkRepo, initializeRepo } from './repoTools';
import { createRoom, getCurrentRoom, joinCode, joinRoom, resumeRoomSession } from './rooms';
import { disconnectAgentSession, registerAgentSession } from './sessions';
import { getHumanRequestsTool, getRoomMemoryTool, rememberRoomFact, requestHumanInputTool } from './knowledge';
import { postReasoningTool, postStatusTool, readMessagesTool, searchMessagesTool, sendMessageTool, sendThreadMessageTool } from './messages';
import { waitForMessagesTool } from './wait';
import { getMessageStatusTool } from './messageStatus';
import { getRoomArtifactsTool, publishRoomArtifactTool } from './artifacts';
import { clearSavedAuth, getOnboardingStatus, pollDeviceAuth, startDeviceAuth } from './onboarding';
import {
  addTaskTool, claimTaskReviewTool, claimTaskTool, completeTaskTool, getBoardTool, handoffTaskLeaseTool,
  releaseTaskLeaseTool, releaseTaskReviewTool, updateTaskTool,
} from './tasks';

export const allTools: readonly ToolDefinition<ToolShape>[] = [
  createRoom, joinCode, joinRoom, getCurrentRoom, checkRepo, resumeRoomSession, initializeRepo,
  registerAgentSession, disconnectAgentSession,
  sendMessageTool, sendThreadMessageTool, readMessagesTool, waitForMessagesTool, searchMessagesTool, getMessageStatusTool, postStatusTool, postReasoningTool,
  addTaskTool, getBoardTool, claimTaskTool, updateTaskTool, completeTaskTool, claimTaskReviewTool,
  releaseTaskReviewTool, releaseTaskLeaseTool, handoffTaskLeaseTool,
  getRoomArtifactsTool, publishRoomArtifactTool,
  getRoomMemoryTool, rememberRoomFact, requestHumanInputTool, getHumanRequestsTool,
  getOnboardingStatus, startDeviceAuth, pollDeviceAuth, clearSavedAuth,
] as unknown as ToolDefinition<ToolShape>[];

/** Rooms, registration, messages, the wait loop and the board's everyday moves. */
export const CORE_TOOLS: readonly string[] = [
  'join_room', 'get_current_room', 'register_agent_session',
  'send_message', 'send_thread_message', 'read_messages', 'wait_for_messages', 'post_status',
  'add_task', 'get_board', 'claim_task', 'update_task', 'complete_task',
];

export const TOOL_PROFILE_TOOLS: Record<ToolProfile, readonly string[] | 'all'> = { full: 'all', core: CORE_TOOLS };

/**
 * Characters of each profile's tools/list as JSON: what every agent carries in its context on
 * every turn. test/mcp/toolList.test.ts holds the list to it, B12 measures it, and a docs test
 * keeps the docs' figures equal to it.
 */
export const TOOL_LIST_BUDGETS: Readonly<Record<ToolProfile, number>> = { full: 20_000, core: 8_000 };
