// Handle normalisation (data-model.md §5.2), used for name clashes, mentions and
// recovery: ASCII A–Z lower-cased, every character outside [a-z0-9_.:/-] removed.

export function normalizeHandle(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[^a-z0-9_.:/-]/g, '');
}
