import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../util/describe-issues.js';
import { ModelConfigError } from './types.js';

/** The settings a config file may hold; unknown keys are an error, so that typos are caught. */
export const taskweaveConfigSchema = z.strictObject({
  /** `provider:model`, as for --model. */
  model: z.string().min(1).optional(),
  /** Base URL for providers that take one (openai, anthropic, openai-compatible). */
  baseUrl: z.url().optional(),
  maxSteps: z.number().int().positive().optional(),
  /** US dollars per million tokens, by `provider:model`: what `taskweave eval` reports as cost. */
  prices: z
    .record(z.string(), z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }))
    .optional(),
});

/** The contents of a taskweave config file. */
export type TaskweaveConfig = z.infer<typeof taskweaveConfigSchema>;

/**
 * Where config files are looked for, in order: the project's `.taskweave/config.json`, then
 * `$XDG_CONFIG_HOME/taskweave/config.json` (by default `$HOME/.config/taskweave/config.json`).
 */
export function configFilePaths(options: { cwd: string; env: NodeJS.ProcessEnv }): string[] {
  const home = options.env.HOME || os.homedir();
  const configHome = options.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    path.join(options.cwd, '.taskweave', 'config.json'),
    path.join(configHome, 'taskweave', 'config.json'),
  ];
}

/**
 * Reads the first config file that exists (see configFilePaths). No file at all gives an empty
 * config; a file that is not valid JSON or does not fit the schema is a ModelConfigError naming
 * the file and what is wrong.
 */
export async function loadConfigFile(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ path?: string; config: TaskweaveConfig }> {
  for (const filePath of configFilePaths(options)) {
    const source = await readIfExists(filePath);
    if (source === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ModelConfigError(`The config file ${filePath} is not valid JSON: ${reason}`);
    }
    const parsed = taskweaveConfigSchema.safeParse(value);
    if (!parsed.success) {
      throw new ModelConfigError(`The config file ${filePath} is not valid: ${describeIssues(parsed.error)}`);
    }
    return { path: filePath, config: parsed.data };
  }
  return { config: {} };
}

async function readIfExists(filePath: string): Promise<string | undefined> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) {
      return undefined;
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`Cannot read the config file ${filePath}: ${reason}`);
  }
}
