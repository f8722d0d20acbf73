// Shared test utilities: the built CLI, serve, helper and HTTP clients, raw sockets, the bearer proxy.
export { cliBin, ensureCliBuilt, repoRoot, runCli, type CliResult } from './cli';
export { cleanupSpawned, isAlive, privateTempDir, tempDataDir, tempDir, track, trackPid, whileStopped } from './processes';
export { startServe, startServeAgain, type ServeHandle, type StartServeOptions } from './serve';
export { CLAUDE_CHANNEL_FLAGS, connectHelper, connectHttp, HelperClient, toolJson, toolText, type HelperOptions } from './clients';
export { openRawSocket, shakeHands, type RawSocket } from './rawSocket';
export { recordingHandler, type RecordingHandler } from './recordingHandler';
export { waitUntil } from './waitUntil';
export { BACKGROUND_WRITE_TABLES } from './backgroundWrites';
export { startBearerProxy, type BearerProxy } from './bearerProxy';
