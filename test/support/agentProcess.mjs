// Stands in for the agent process that starts the helper, with the agent's own command-line
// flags (e.g. Claude Code's `--dangerously-load-development-channels server:letagents`):
// `node agentProcess.mjs <agent flags…> -- <command> <args…>` runs the command as its child
// on the same stdio, so the helper finds those flags in its parent's real command line.
import { spawn } from 'node:child_process';

const cut = process.argv.indexOf('--');
const [command, ...args] = process.argv.slice(cut + 1);
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
