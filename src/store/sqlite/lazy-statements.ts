/**
 * Statements prepared when first used. Preparing one through drizzle builds its SQL (a few
 * hundred microseconds each): a store that prepared every statement when opened made each
 * command pay for the ones it never runs (bench/startup.ts).
 */

/** `builders`' statements as properties, each built by its function on first read and kept. */
export function lazyStatements<T extends Record<string, () => unknown>>(
  builders: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const statements = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const key of Object.keys(builders) as (keyof T & string)[]) {
    Object.defineProperty(statements, key, {
      configurable: true,
      enumerable: true,
      get() {
        const value = builders[key]!() as ReturnType<T[typeof key]>;
        Object.defineProperty(statements, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return statements;
}
