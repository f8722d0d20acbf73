// Bundles the `letagents-desktop` command into out/cli. The stdio helper is its own
// small chunk so `letagents-desktop mcp` starts without loading SQLite or the core.
import { build } from 'esbuild';

await build({
  entryPoints: { cli: 'src/cli/index.ts' },
  outdir: 'out/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  outExtension: { '.js': '.mjs' },
});
