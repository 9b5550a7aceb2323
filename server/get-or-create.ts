interface Cache<K, V> {
  has(key: K): boolean;
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The cache's value for key, made (and kept) by make() the first time it is asked for. */
export function getOrCreate<K, V>(map: Cache<K, V>, key: K, make: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = make();
  map.set(key, value);
  return value;
}

/** Like getOrCreate for promises, but a promise that rejects is forgotten so the next call tries again. */
export function getOrCreatePromise<K, V>(
  map: Cache<K, Promise<V>> & { delete(key: K): unknown },
  key: K,
  make: () => Promise<V>,
): Promise<V> {
  return getOrCreate(map, key, () => {
    const promise = make();
    promise.catch(() => map.delete(key));
    return promise;
  });
}
