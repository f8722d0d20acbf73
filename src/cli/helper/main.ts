// `letagents-desktop mcp`: the stdio helper agents spawn. A pure pipe into the app's
// agent socket; it imports no core and no native module so it starts fast.
import { AppLink } from '../../shared-node/appLink';
import { helperDataDir } from '../../shared-node/dataPaths';
import { channelFlagOfAgent } from './channelFlag';
import { Relay } from './relay';
import { TOOL_PROFILE_NAMES, TURN_KEY_ENV, type ToolProfileName } from '../../shared-node/protocol';
import { parseCommandArgs } from '../usage';

export async function runHelper(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { 'data-dir': { type: 'string' }, ide: { type: 'string' }, tools: { type: 'string' } });
  const tools = values.tools;
  if (tools !== undefined && !TOOL_PROFILE_NAMES.includes(tools as ToolProfileName)) {
    process.stderr.write(`letagents-desktop mcp: --tools must be one of ${TOOL_PROFILE_NAMES.join(', ')}, not "${tools}".\n`);
    return 2;
  }
  const dataDir = helperDataDir(values['data-dir']);
  const link = new AppLink(dataDir, {
    cwd: currentDirectory(),
    ide: values.ide ?? (process.env.LETAGENTS_AGENT_IDE || null),
    pid: process.pid,
    channel_flag: channelFlagOfAgent(),
    ...(tools !== undefined ? { tools: tools as ToolProfileName } : {}),
    ...(process.env[TURN_KEY_ENV] ? { turn_key: process.env[TURN_KEY_ENV] } : {}),
  });
  const relay = new Relay({
    input: process.stdin,
    output: process.stdout,
    reconnect: (stillWanted) => link.reconnect(stillWanted),
    awayMessage: () => link.awayMessage(),
  });
  relay.start();
  const first = await Promise.race([link.connectOrStart(), relay.done]);
  if (typeof first === 'number') return first; // the agent went away while the app was starting
  if (typeof first === 'string') relay.finish(1, first);
  else relay.attach(first);
  return relay.done;
}

/** The agent's working directory; null if it was deleted under us. */
function currentDirectory(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}
