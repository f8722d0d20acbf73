// Polls a condition (checked in memory, or read from a database) for a bounded time: for states another process reaches on its own.
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
