// Mapping over rows with an async lookup per row, one row at a time and in order: queries
// of one read or write never interleave, and a result keeps the rows' order.

export async function mapInOrder<T, U>(items: readonly T[], fn: (item: T) => Promise<U>): Promise<U[]> {
  const out: U[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}
