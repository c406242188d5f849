import { readFileSync } from 'node:fs';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { jsonSchema, type Tool as SdkTool, tool } from 'ai';
import { z } from 'zod';
import { builtSchemaKey, builtSchemas } from '../../tools/built-schemas.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool, ToolOfferState } from '../../tools/types.js';
import { mapFor } from '../../util/nested-map.js';

/**
 * Per registry, its tool sets by the names offered: a registry offers one or two sets in a run
 * (before and after a background command), and each keeps its identity across calls (the
 * provider's conversion and the context estimate are made once per set).
 */
const registryCache = new WeakMap<ToolRegistry, Map<string, Record<string, SdkTool>>>();
/** SDK tool definitions by parameter schema and description: per-task registries reuse them. */
const definitionCache = new WeakMap<Tool['parameters'], Map<string, SdkTool>>();

/**
 * The tools the registry offers in this state, as the AI SDK describes them to the model (no
 * execute: taskweave runs them).
 */
export function modelToolsFor(registry: ToolRegistry, state: ToolOfferState): Record<string, SdkTool> {
  const offered = registry.offered(state);
  const sets = mapFor(registryCache, registry);
  const key = offered.map((entry) => entry.name).join('\n');
  const cached = sets.get(key);
  if (cached) return cached;
  const tools: Record<string, SdkTool> = {};
  for (const entry of offered) tools[entry.name] = definitionOf(entry);
  sets.set(key, tools);
  return tools;
}

function definitionOf(entry: Tool): SdkTool {
  // A tool that came with its JSON Schema (MCP) is described with it, unconverted.
  if (entry.jsonSchema) {
    return tool({ description: entry.description, inputSchema: jsonSchema(entry.jsonSchema as JSONSchema7) });
  }
  const byDescription = mapFor(definitionCache, entry.parameters);
  let definition = byDescription.get(entry.description);
  if (!definition) {
    // Converted to JSON Schema once: the SDK would convert a zod schema again on every call.
    // Arguments are validated by the tool wrapper (defineTool), not by the SDK.
    const schema = builtSchemaOf(entry) ?? toolJsonSchema(entry);
    definition = tool({ description: entry.description, inputSchema: jsonSchema(schema as JSONSchema7) });
    byDescription.set(entry.description, definition);
  }
  return definition;
}

/** A tool's parameters as the JSON Schema the model is sent. */
export function toolJsonSchema(entry: Pick<Tool, 'parameters'>): Record<string, unknown> {
  return leanSchema(
    z.toJSONSchema(entry.parameters, { target: 'draft-7', io: 'input', unrepresentable: 'any' }),
  );
}

/** The file the build writes next to the bundle: the built schemas' JSON Schemas (scripts/bundle.mjs). */
export const BUILT_SCHEMAS_FILE = 'tool-schemas.json';

/** Every registered schema (tools/built-schemas.ts) as JSON Schema, by key: what the build writes. */
export function builtToolSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    [...builtSchemas()].map(([key, parameters]) => [key, toolJsonSchema({ parameters })]),
  );
}

let converted: Record<string, Record<string, unknown>> | null | undefined;

/**
 * The JSON Schema the build converted for a tool's parameters, when they are a registered
 * module constant (tools/built-schemas.ts): every run sends its tools' schemas, and converting
 * them costs milliseconds of each run's start (bench/startup). None when the code runs from its
 * sources (no file beside it): converted then.
 */
function builtSchemaOf(entry: Tool): Record<string, unknown> | undefined {
  const key = builtSchemaKey(entry.parameters);
  if (key === undefined) return undefined;
  if (converted === undefined) {
    try {
      converted = JSON.parse(readFileSync(new URL(BUILT_SCHEMAS_FILE, import.meta.url), 'utf8')) as Record<
        string,
        Record<string, unknown>
      >;
    } catch {
      converted = null;
    }
  }
  return converted?.[key];
}

/**
 * The schema without what tells the model nothing and is sent with every request: the `$schema`
 * URI, the bound zod puts on every integer (Number.MAX_SAFE_INTEGER) and `minLength: 1` (a
 * required text is not sent empty; if it is, the tool wrapper, which validates against the full
 * zod schema, says so).
 */
export function leanSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _uri, ...rest } = schema;
  return JSON.parse(JSON.stringify(rest), (key, value) =>
    (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minLength' && value === 1)
      ? undefined
      : value,
  ) as Record<string, unknown>;
}
