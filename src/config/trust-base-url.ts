import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelConfigError } from '../model/types.js';
import { describeIssues } from '../util/describe-issues.js';
import { taskweaveConfigSchema } from './config-file.js';

/** Spaces per level when the user config is written back: the way people write it by hand. */
const JSON_INDENT = 2;

/**
 * Adds `url` to `trustedBaseUrls` in the user's own config file (config-file.ts's user path),
 * keeping every other key. The file and its folder are created when missing; the new contents
 * go to a temporary file in the same folder first and are renamed over the old one, so that a
 * crash never leaves half a config. A file that is not valid JSON, or would not be valid after
 * the change, is a ModelConfigError and is left as it was.
 */
export async function trustBaseUrl(options: { userFile: string; url: string }): Promise<void> {
  const { url } = options;
  await updateUserConfig(options.userFile, `trust ${url}`, (current) => {
    const trusted = Array.isArray(current.trustedBaseUrls) ? current.trustedBaseUrls : [];
    return trusted.includes(url) ? current : { ...current, trustedBaseUrls: [...trusted, url] };
  });
}

/**
 * Changes the user's own config file with `change` (given the current contents, {} when there
 * is none), keeping every other key, the way trustBaseUrl describes: checked against the schema
 * first, written to a temporary file and renamed over the old one. `what` names the change in errors.
 */
export async function updateUserConfig(
  file: string,
  what: string,
  change: (current: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  // A config file kept elsewhere behind a symbolic link (a dotfiles repository) stays a link.
  const userFile = await realpath(file).catch(() => file);
  const current = await readConfigObject(userFile);
  const next = change(current);
  const checked = taskweaveConfigSchema.safeParse(next);
  if (!checked.success) {
    throw new ModelConfigError(`Cannot ${what} in ${userFile}: ${describeIssues(checked.error)}`);
  }
  await mkdir(path.dirname(userFile), { recursive: true });
  const mode = await existingMode(userFile);
  const temp = path.join(
    path.dirname(userFile),
    `.${path.basename(userFile)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, `${JSON.stringify(next, null, JSON_INDENT)}\n`, { flag: 'wx' });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, userFile);
  } catch (error) {
    await rm(temp, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`Cannot write the config file ${userFile}: ${reason}`);
  }
}

/** The user config as a plain object ({} when there is no file yet). */
async function readConfigObject(file: string): Promise<Record<string, unknown>> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return {};
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`Cannot read the config file ${file}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`The config file ${file} is not valid JSON: ${reason}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelConfigError(`The config file ${file} is not valid: it must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The permission bits of an existing file, so that the rewritten file keeps them. */
async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o7777;
  } catch {
    return undefined;
  }
}
