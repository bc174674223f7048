/**
 * The two ways the oracle's indexes fill a `Map` while reading a trace once, in trace order:
 * every value per key in order (`pushTo`), or only the first (`setFirst`).
 */

/** Appends `value` to the list `map` holds for `key`, starting the list if there is none. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Sets `key` to `value` unless `map` already holds a value for it (the first one wins). */
export function setFirst<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key)) map.set(key, value);
}
