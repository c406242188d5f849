import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';

/*
 * Which models can see images: a user's image goes to a model without vision never (a clear
 * refusal before any request, naming the model), not as a provider's error later.
 */

/**
 * Known models, by `provider:` and the start of the model's name; the longest matching prefix
 * wins. The hosted providers' current models see images, their old text-only ones do not; of
 * local models (ollama) only the vision families do. A model no prefix matches: see visionOf.
 */
const KNOWN_VISION: readonly [prefix: string, vision: boolean][] = [
  ['openai:', true],
  ['openai:gpt-3.5', false],
  ['openai:gpt-4-0', false],
  ['openai:o1-mini', false],
  ['openai:o3-mini', false],
  ['anthropic:', true],
  ['anthropic:claude-2', false],
  ['anthropic:claude-instant', false],
  ['anthropic:claude-3-5-haiku', true],
  ['google:', true],
  ['ollama:', false],
  ['ollama:llava', true],
  ['ollama:bakllava', true],
  ['ollama:llama3.2-vision', true],
  ['ollama:llama4', true],
  ['ollama:gemma3', true],
  ['ollama:qwen2.5vl', true],
  ['ollama:qwen3-vl', true],
  ['ollama:minicpm-v', true],
  ['ollama:moondream', true],
  ['ollama:granite3.2-vision', true],
  ['ollama:mistral-small3.1', true],
  ['ollama:mistral-small3.2', true],
  ['openai-compatible:', true],
];

/** The config file's `vision` key: per `provider:model` (or per provider), whether it sees images. */
export const visionConfigSchema = z.record(z.string().min(1), z.boolean());
/** The config file's `vision` setting. */
export type VisionConfig = z.infer<typeof visionConfigSchema>;

/**
 * Whether a model (`provider:model`) sees images: the config's entry for the model, else for its
 * provider; then what the model says of itself (a script's `vision`); then the table above. A
 * model of no known provider does not.
 */
export function visionOf(modelId: string, config: VisionConfig = {}, model?: LanguageModelV3): boolean {
  const provider = modelId.slice(0, Math.max(0, modelId.indexOf(':')));
  const configured = config[modelId] ?? (provider === '' ? undefined : config[provider]);
  if (configured !== undefined) return configured;
  if (model !== undefined && 'vision' in model && typeof model.vision === 'boolean') return model.vision;
  const known = KNOWN_VISION.filter(([prefix]) => modelId.startsWith(prefix)).sort(
    (a, b) => b[0].length - a[0].length,
  )[0];
  return known?.[1] ?? false;
}
