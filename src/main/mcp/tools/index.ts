// The interactive_desktop tool surface (mcp-tools.md §1), by group.
import type { ToolDefinition, ToolShape } from '../toolKit';
import { checkRepo, initializeRepo } from './repoTools';
import { createRoom, getCurrentRoom, joinCode, joinRoom, resumeRoomSession } from './rooms';
import { disconnectAgentSession, registerAgentSession } from './sessions';
import { getHumanRequestsTool, getRoomMemoryTool, rememberRoomFact, requestHumanInputTool } from './knowledge';
import { postReasoningTool, postStatusTool, readMessagesTool, searchMessagesTool, sendMessageTool, sendThreadMessageTool } from './messages';
import { waitForMessagesTool } from './wait';
import { getRoomArtifactsTool, publishRoomArtifactTool } from './artifacts';
import { clearSavedAuth, getOnboardingStatus, pollDeviceAuth, startDeviceAuth } from './onboarding';
import {
  addTaskTool, claimTaskReviewTool, claimTaskTool, completeTaskTool, getBoardTool, handoffTaskLeaseTool,
  releaseTaskLeaseTool, releaseTaskReviewTool, updateTaskTool,
} from './tasks';

export const allTools: readonly ToolDefinition<ToolShape>[] = [
  createRoom, joinCode, joinRoom, getCurrentRoom, checkRepo, resumeRoomSession, initializeRepo,
  registerAgentSession, disconnectAgentSession,
  sendMessageTool, sendThreadMessageTool, readMessagesTool, waitForMessagesTool, searchMessagesTool, postStatusTool, postReasoningTool,
  addTaskTool, getBoardTool, claimTaskTool, updateTaskTool, completeTaskTool, claimTaskReviewTool,
  releaseTaskReviewTool, releaseTaskLeaseTool, handoffTaskLeaseTool,
  getRoomArtifactsTool, publishRoomArtifactTool,
  getRoomMemoryTool, rememberRoomFact, requestHumanInputTool, getHumanRequestsTool,
  getOnboardingStatus, startDeviceAuth, pollDeviceAuth, clearSavedAuth,
] as unknown as ToolDefinition<ToolShape>[];
