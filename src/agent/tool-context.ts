import type { JSONSchema7 } from '@ai-sdk/provider';
import { jsonSchema, type Tool as SdkTool, tool } from 'ai';
import { z } from 'zod';
import { callModel, type ModelToolCall } from '../model/call-model.js';
import type { FileTracker } from '../tools/file-tracker.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolContext } from '../tools/types.js';
import type { RunContext } from './run-state.js';
import { recordUsage } from './usage.js';

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
  let byDescription = definitionCache.get(entry.parameters);
  if (!byDescription) {
    byDescription = new Map();
    definitionCache.set(entry.parameters, byDescription);
  }
  let definition = byDescription.get(entry.description);
  if (!definition) {
    // Converted to JSON Schema once: the SDK would convert a zod schema again on every call.
    // Arguments are validated by the tool wrapper (defineTool), not by the SDK.
    const schema = z.toJSONSchema(entry.parameters, {
      target: 'draft-7',
      io: 'input',
      unrepresentable: 'any',
    });
    definition = tool({ description: entry.description, inputSchema: jsonSchema(schema as JSONSchema7) });
    byDescription.set(entry.description, definition);
  }
  return definition;
}

/** Builds what one tool call may touch. */
export function toolContextFor(
  run: RunContext,
  options: {
    call: ModelToolCall;
    step: number;
    taskId: string | undefined;
    signal: AbortSignal;
    /** What this conversation has read (each plan task keeps its own); the run's when left out. */
    files?: FileTracker;
  },
): ToolContext {
  const { call, step, taskId, signal } = options;
  return {
    workspace: run.workspace,
    signal,
    control: run.control,
    files: options.files ?? run.files,
    callId: call.id,
    progress: (content) =>
      run.emit({ type: 'tool_progress', call_id: call.id, name: call.name, content, task_id: taskId }),
    model: {
      async complete({ system, prompt, signal: requestSignal }) {
        const reply = await callModel({
          model: run.model,
          system: system ?? '',
          messages: [{ role: 'user', content: prompt }],
          tag: { runId: run.runId, taskId, phase: 'analyze' },
          signal: requestSignal ?? signal,
        });
        recordUsage(run, reply, { step, phase: 'analyze', taskId });
        return reply.text;
      },
    },
  };
}
