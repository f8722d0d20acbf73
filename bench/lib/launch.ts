// Process launch timings: a helper's time to its first MCP response, a bare `node -e ''`,
// and `serve` to its ready line.
import { spawn } from 'node:child_process';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { cliBin } from './processes';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'letagents-bench', version: '1.0.0' } },
})}\n`;

/** Spawns `letagents-desktop mcp`, writes initialize at once, resolves with ms until the first stdout line. */
export function helperFirstResponse(dataDir: string, cwd: string, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cliBin, 'mcp', '--data-dir', dataDir], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let settled = false;
    const finish = (error: Error | null, ms?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      child.kill('SIGTERM');
      if (error) reject(error);
      else resolve(ms!);
    };
    const timer = setTimeout(() => finish(new Error(`helper gave no response in ${timeoutMs} ms: ${err}`)), timeoutMs);
    child.once('error', (error) => finish(error));
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const reply = JSON.parse(out.slice(0, out.indexOf('\n'))) as { id?: number; result?: unknown };
      if (reply.id !== 1 || !reply.result) return finish(new Error(`unexpected first line: ${out.slice(0, 200)}`));
      finish(null, performance.now() - started);
    });
    child.stdin.write(INITIALIZE);
  });
}

/** Milliseconds from spawning `node -e ''` to its exit. */
export function bareNodeStart(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - started));
  });
}
