// Domain types the UI works with (inferred from the contract's schemas).
export type { Person } from './model/common';
export type { RoomKind, RoomSummary, RoomExport } from './model/rooms';
export type { MessageSource, MessageKind, TimelineMessage, TimelinePage, WakePreview, ThreadView, SnippetPart, SearchHit, SearchResult, SearchAllResult } from './model/messages';
export type { TaskCard, TaskDetail, TaskHistoryEntry, WorkflowArtifact, PullRequestState, Board } from './model/tasks';
export type { TaskStatus } from './taskTransitions';
export type { AgentStatus, AgentSession, Wake, WakeReason, Reachability, Meter } from './model/workers';
export type { SeenBy, WaitingFor, MessageReceipts, BroadcastTurns, TurnStep, RoomDelivery, AlertAction, DeliveryLimits } from './model/delivery';
export type { NeedsYouRef, NeedsYouReason, NeedsYouItem, AlertInfo } from './model/needsYou';
export type { ApprovalDecision, ApprovalInfo, ApprovalOutcome, ApprovalPhase, ApprovalState } from './model/approvals';
export type { FactCategory, Fact } from './model/knowledge';
export type { Account, DeviceFlow, AuthStatus, PollResult } from './model/account';
export type { ToolId, ToolSetup, ConfigSnippet } from './model/setup';
export type { Theme, Settings, AppInfo, DoctorReport } from './model/app';
export type { AgentPermissions, ManagedAgentState, ManagedAgent, AddAgentInput, TurnView, TurnStatus, ActivityEntry, AgentActivity, ProviderInfo } from './model/managedAgents';
export type { TeamConnection, TeamSummary, TeamsList, TeamTest } from './model/teams';
export type { AppEvent, AppEventType, AppEventOf } from './events';
export type { MethodName, ApiResult, ApiErrorBody, LetAgentsBridge } from './bridge';
export type { MethodInput, MethodOutput } from './contract';
