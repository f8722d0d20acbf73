// The `letagents-desktop` command: serve | mcp | doctor (architecture.md §3).
// Each subcommand is loaded on demand so the stdio helper stays small and fast.
const [command, ...rest] = process.argv.slice(2);

async function main(): Promise<number> {
  switch (command) {
    default:
      process.stderr.write('usage: letagents-desktop <serve|mcp|doctor> [--data-dir D]\n');
      return command === undefined || command === '--help' ? 0 : 2;
  }
}

main().then((code) => { process.exitCode = code; }, (error) => {
  process.stderr.write(`letagents-desktop: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
void rest;
