#!/usr/bin/env node
// Entry of the `letagents-desktop` command; the bundled CLI lives in out/cli.
import('../out/cli/cli.mjs').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('out/cli')) {
    console.error('letagents-desktop: not built yet. Run `npm run build:cli` first.');
  } else {
    console.error(error);
  }
  process.exit(1);
});
