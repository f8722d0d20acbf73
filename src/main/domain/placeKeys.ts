// Keys that name a room or a session together with its place: a room id is unique only
// within its place, and a worker's session id is derived from the worker and the room id,
// so the same id may exist in two places. Ids never hold a control character (data-model.md
// §2), so a newline separates the two parts without ambiguity.

export const placeKey = (place: string, id: string): string => `${place}\n${id}`;

export function splitPlaceKey(key: string): { place: string; id: string } {
  const cut = key.indexOf('\n');
  return { place: key.slice(0, cut), id: key.slice(cut + 1) };
}
