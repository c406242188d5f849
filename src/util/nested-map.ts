/**
 * The map kept for `key` in a cache of maps per object, created empty on first use (values per
 * tool and name: the per-task tool sets of a plan share most of their tools).
 */
export function mapFor<K extends object, V>(cache: WeakMap<K, Map<string, V>>, key: K): Map<string, V> {
  let map = cache.get(key);
  if (map === undefined) {
    map = new Map();
    cache.set(key, map);
  }
  return map;
}
