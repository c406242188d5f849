import type { JSONSchema7 } from '@ai-sdk/provider';
import { jsonSchema, type Tool as SdkTool, tool } from 'ai';
import { z } from 'zod';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/types.js';
import { mapFor } from '../../util/nested-map.js';

const registryCache = new WeakMap<ToolRegistry, Record<string, SdkTool>>();
/** SDK tool definitions by parameter schema and description: per-task registries reuse them. */
const definitionCache = new WeakMap<Tool['parameters'], Map<string, SdkTool>>();

/** The registry's tools as the AI SDK describes them to the model (no execute: taskweave runs them). */
export function modelToolsFor(registry: ToolRegistry): Record<string, SdkTool> {
  const cached = registryCache.get(registry);
  if (cached) return cached;
  const tools: Record<string, SdkTool> = {};
  for (const entry of registry.list()) tools[entry.name] = definitionOf(entry);
  registryCache.set(registry, tools);
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
    const schema = leanSchema(
      z.toJSONSchema(entry.parameters, { target: 'draft-7', io: 'input', unrepresentable: 'any' }),
    );
    definition = tool({ description: entry.description, inputSchema: jsonSchema(schema as JSONSchema7) });
    byDescription.set(entry.description, definition);
  }
  return definition;
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
