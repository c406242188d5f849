import type { z } from 'zod';

/*
 * Tool parameter schemas whose JSON Schema the build converts once (scripts/bundle.mjs writes
 * them to dist/bundle/tool-schemas.json), instead of every run converting them at its start: the
 * model is sent every tool's JSON Schema with its first request, and zod's conversion of a run's
 * tools costs milliseconds of that (bench/startup). Only a schema made once per process can be
 * registered (a module's constant): one made per call could differ from the build's.
 */

const keyOf = new WeakMap<z.ZodType, string>();
const byKey = new Map<string, z.ZodType>();

/**
 * Registers a module's constant parameter schema under `key` (the tool's name) and returns it.
 * A key given to another schema is a programming error: such a schema is made per call.
 */
export function builtSchema<T extends z.ZodType>(key: string, schema: T): T {
  const known = byKey.get(key);
  if (known !== undefined && known !== schema)
    throw new Error(`Two schemas are registered as ${key}: a built schema must be a module's constant.`);
  byKey.set(key, schema);
  keyOf.set(schema, key);
  return schema;
}

/** The key a schema was registered under, if it was. */
export function builtSchemaKey(schema: z.ZodType): string | undefined {
  return keyOf.get(schema);
}

/** Every registered schema by key (what the build converts). */
export function builtSchemas(): ReadonlyMap<string, z.ZodType> {
  return byKey;
}
