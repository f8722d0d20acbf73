// A fleet of agents: N stdio helpers, each a registered worker in one room, as a busy
// laptop would have them. Helpers start a few at a time so start-up does not swamp the
// machine (two cores) before the measurement begins.
import { agentName, joinAsWorker, type Worker } from './agents';
import { cliBin, closeClient, connectHelper } from './processes';

const START_BATCH = 5;

/** `count` helpers of the build at `bin` (this checkout's by default), each a worker of `roomId`. */
export async function startFleet(dataDir: string, agentDir: string, roomId: string, count: number, firstIndex = 0, bin = cliBin): Promise<Worker[]> {
  const workers: Worker[] = [];
  try {
    for (let i = 0; i < count; i += START_BATCH) {
      const batch = Array.from({ length: Math.min(START_BATCH, count - i) }, async (_, j) => {
        const client = await connectHelper(dataDir, agentDir, `bench-agent-${firstIndex + i + j}`, { bin });
        return joinAsWorker(client, roomId, agentName(firstIndex + i + j));
      });
      workers.push(...(await Promise.all(batch)));
    }
  } catch (error) {
    await stopFleet(workers);
    throw error;
  }
  return workers;
}

export async function stopFleet(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => closeClient(w.client)));
}
