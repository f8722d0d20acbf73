// Connection ids ("c1", "c2", …), unique for the app's lifetime across socket and HTTP.

export type ConnectionIdSource = () => string;

export function connectionIdSource(prefix = 'c'): ConnectionIdSource {
  let next = 0;
  return () => `${prefix}${++next}`;
}
