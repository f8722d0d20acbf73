// The environment of every program the app starts (providers, git, the browser opener, ps):
// the person's own, without the app's settings. LETAGENTS_* configure this app (a team's
// URL with its password, the data folder, GitHub endpoints); no child needs them, and a
// child's environment is readable by anything it runs. Electron's run-as-node switch would
// turn an Electron-based program into plain Node.
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('LETAGENTS_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    out[key] = value;
  }
  return out;
}
