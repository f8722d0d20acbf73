// B17 (issue 29): B11's send_message round trip in a team room through a real PgBouncer in
// transaction mode (the listener direct) against the same call on a direct connection to the
// same database, one app, alternating blocks.
import { joinAsWorker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper } from '../lib/processes';
import { POOLED_TEAM, startTeam, TEAM } from '../lib/team';
import { compareSends } from './b11TeamSend';

export const b17: Figure = {
  id: 'B17',
  what: 'send_message round trip in a team room through PgBouncer (transaction mode) vs a direct connection',
  target: 'ratio ≤ 1.3×',
  async run() {
    const team = await startTeam({ pooler: true });
    try {
      const { ws } = await team.machine();
      const helper = await connectHelper(ws.dataDir, ws.agentDir);
      try {
        const pooled = await joinAsWorker(helper, 'bench-b17-pooled', 'Pooled', POOLED_TEAM);
        const direct = await joinAsWorker(helper, 'bench-b17-direct', 'Direct', TEAM);
        const { o, f, ratio, note } = await compareSends(helper, pooled, direct);
        return {
          ours: { ...o, label: 'send_message via helper, team room through PgBouncer', unit: 'ms' },
          floor: { ...f, label: 'the same call, direct to PostgreSQL', unit: 'ms' },
          ratio,
          met: ratio <= 1.3,
          notes: [`${note}; both rooms in one database`],
        };
      } finally {
        await closeClient(helper);
      }
    } finally {
      await team.stop();
    }
  },
};
