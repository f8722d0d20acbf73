// Tasks, work and review leases, workflow and room artifacts, and task history: the
// public surface of the task domain (MCP tools and the app API call these).
export * from './transitions';
export * from './workflowArtifacts';
export { toLeaseObject, type LeaseObject } from './leases';
export { toTaskObject, toBoardTaskObject, type TaskObject, type BoardTaskObject } from './taskObject';
export { getBoard, getTask, listTaskHistory, ARTIFACT_DETAIL_INSTRUCTION, type BoardFilter, type TaskHistoryEntry } from './board';
export { parseTaskId } from './taskEffects';
export { addTask, MAX_TITLE_CHARS, MAX_DESCRIPTION_CHARS, type AddTaskInput } from './createTask';
export { claimTask } from './claim';
export { updateTask, completeTask, PERSON_ASSIGNS_BY_HANDOFF, type UpdateTaskInput } from './updateTask';
export { claimReview, releaseReview } from './reviewLease';
export {
  releaseWorkLease, handoffTask, releaseWorkLeasesOfSession, activeLeasesOfSession,
  type ReleaseResult, type HandoffInput, type HandoffResult,
} from './workLease';
export {
  moveTaskAsPerson, acceptTaskAsPerson, cancelTaskAsPerson, reassignTaskAsPerson, forceReleaseWorkLease, forceReleaseReview,
} from './personActions';
export {
  publishRoomArtifact, listRoomArtifacts, MAX_LINKED_TASKS, DEFAULT_ARTIFACT_LIMIT, MAX_ARTIFACT_LIMIT,
  type RoomArtifactObject, type PublishInput,
} from './roomArtifacts';
