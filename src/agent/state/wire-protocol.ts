import type { ModelMessage, Tool as SdkTool } from 'ai';
import type { ModelReply } from '../../model/call-model.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolOfferState } from '../../tools/types.js';
import type { ExecutedCall } from './executed-call.js';

/** A reply read into the one internal shape (AgentResponse): text, tool calls, reasoning. */
export type ReadReply = { ok: true; reply: ModelReply; reasoning?: string } | { ok: false; error: string };

/**
 * How a run speaks to its model. Both wire protocols (native tool calling and JSON replies,
 * `protocol/`) implement it and produce the same internal reply; the loop does not care which
 * one the model speaks. Declared here so that a run's state names it without climbing to them.
 */
export interface WireProtocol {
  /** Whether the model's streamed text is for people (native) or a JSON document (json). */
  streamsText: boolean;
  /** The tools the registry offers in this state (the run's, each step), as the provider takes them. */
  modelTools(registry: ToolRegistry, state: ToolOfferState): Record<string, SdkTool> | undefined;
  /** The system prompt; the JSON protocol describes there the tools offered in this state. */
  system(base: string, registry: ToolRegistry, state: ToolOfferState): string;
  read(reply: ModelReply, registry: ToolRegistry): ReadReply;
  assistantMessage(raw: ModelReply, read: ReadReply): ModelMessage;
  resultsMessage(executed: ExecutedCall[]): ModelMessage | undefined;
  /** The message that sends an unreadable reply back to the model. */
  errorMessage(error: string): ModelMessage;
}
