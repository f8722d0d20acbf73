// How to reach `serve` on a remote machine: the app listens on 127.0.0.1 only, so the way
// in from another computer is an SSH tunnel to the same port, then the printed one-time link.
import { hostname, userInfo } from 'node:os';

/** The port suggested when none was chosen: the tunnel needs one fixed port on both ends. */
export const SUGGESTED_REMOTE_PORT = 7420;

/** `user@machine` as the person's computer would reach this one (the address their SSH session came in on, if any). */
function thisMachine(env: NodeJS.ProcessEnv): string {
  const serverAddress = env.SSH_CONNECTION?.trim().split(/\s+/)[2];
  let user = 'you';
  try {
    user = userInfo().username || user;
  } catch {
    // no user name for this uid (a container): keep the placeholder
  }
  return `${user}@${serverAddress || hostname()}`;
}

/** The SSH command to run on the person's own computer. */
export function sshTunnelCommand(port: number, env: NodeJS.ProcessEnv): string {
  return `ssh -N -L ${port}:127.0.0.1:${port} ${thisMachine(env)}`;
}

/** Said when --host asks for more than loopback. */
export function remoteHowTo(port: number | null, env: NodeJS.ProcessEnv): string {
  const p = port ?? SUGGESTED_REMOTE_PORT;
  return (
    `To use it from another computer, forward its port over SSH (the same port on both ends): here \`letagents-desktop serve --port ${p}\`; ` +
    `on your computer \`${sshTunnelCommand(p, env)}\`; then open the one-time link serve prints in your computer's browser ` +
    '(`letagents-desktop open --print` here prints a fresh one).\n'
  );
}
