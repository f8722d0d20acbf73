// `npm run bench [-- B3 …]`: bundles the TypeScript benchmarks (bench/main.ts and the app
// sources it measures) into out/bench with esbuild, then runs them in this process.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'bench/main.ts' },
  outdir: 'out/bench',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
  outExtension: { '.js': '.mjs' },
});
const { main } = await import('../out/bench/main.mjs');
process.exitCode = await main(process.argv.slice(2));
