import { scrubOriginalEnvironment } from './environ-scrub.js';

/** The environment variables that hold the model providers' API keys. */
export const PROVIDER_KEY_VARIABLES: readonly string[] = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GEMINI_API_KEY',
  'OPENAI_COMPATIBLE_API_KEY',
];

/** Shorter values are not redacted: they would match ordinary text (and are no real keys). */
const MIN_REDACTED_KEY_CHARS = 8;

/** The keys taken out of the environment, held in memory only. */
const held = new Map<string, string>();

/**
 * Takes the providers' API keys out of the process environment and holds them in memory: no
 * child process inherits them, and the environment block that /proc/<pid>/environ shows has
 * their values zeroed. Called once, at start-up, before anything else runs. Returns whether the
 * block could be cleared (Linux); the variables are removed from process.env either way.
 */
export function holdProviderKeys(env: NodeJS.ProcessEnv = process.env): boolean {
  const found: string[] = [];
  for (const name of PROVIDER_KEY_VARIABLES) {
    const value = env[name];
    if (value === undefined) continue;
    if (value.trim() !== '') held.set(name, value);
    delete env[name];
    found.push(name);
  }
  return env === process.env ? scrubOriginalEnvironment(found) : true;
}

/** The held keys, by variable name, for the model providers (under an environment's own values). */
export function heldProviderKeys(): Record<string, string> {
  return Object.fromEntries(held);
}

/**
 * The text with every known API key value (held, or still in process.env) replaced by
 * `[NAME redacted]`: what a command prints, a file holds or a tool says is stored and shown
 * without them.
 */
export function redactProviderKeys(text: string): string {
  let redacted = text;
  for (const [name, value] of knownKeys()) {
    if (value.length >= MIN_REDACTED_KEY_CHARS && redacted.includes(value))
      redacted = redacted.replaceAll(value, `[${name} redacted]`);
  }
  return redacted;
}

function knownKeys(): [string, string][] {
  const keys = new Map([...held].map(([name, value]) => [name, value.trim()]));
  for (const name of PROVIDER_KEY_VARIABLES) {
    const value = process.env[name]?.trim();
    if (value) keys.set(name, value);
  }
  return [...keys];
}
