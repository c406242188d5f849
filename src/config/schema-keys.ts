import { z } from 'zod';

/**
 * The keys an object of `schema` may hold at `path` (as a zod issue names it): what a config's
 * unknown key is compared with for a "did you mean". Every option's keys where the schema allows
 * several shapes there; none where no object is expected.
 */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType[] = [schema];
  for (const key of path)
    current = current.flatMap((each) => shapes(each).flatMap((shape) => child(shape, key)));
  return [...new Set(current.flatMap((each) => shapes(each)).flatMap(objectKeys))];
}

/** The schemas a value matching `schema` may be checked against, wrappers and unions opened. */
function shapes(schema: z.ZodType): z.ZodType[] {
  if (schema instanceof z.ZodLazy) return shapes(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return shapes(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return shapes(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(shapes);
  return [schema];
}

function child(schema: z.ZodType, key: PropertyKey): z.ZodType[] {
  if (schema instanceof z.ZodObject && typeof key === 'string') {
    const field = (schema.shape as Record<string, z.ZodType>)[key];
    return field === undefined ? [] : [field];
  }
  if (schema instanceof z.ZodRecord) return [schema.valueType as z.ZodType];
  if (schema instanceof z.ZodArray && typeof key === 'number') return [schema.element as z.ZodType];
  return [];
}

function objectKeys(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}
