import { InvalidArgumentError } from 'commander';

/** Bad usage or configuration: the CLI prints the message and exits with code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses a positive whole number option, with an error commander shows as usage. */
export function parsePositiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return parsed;
}

/** Parses a checkpoint's number as `taskweave checkpoints` lists it: `2` or `#2`. */
export function parseCheckpointNumber(value: string): number {
  const parsed = Number(value.trim().replace(/^#/, ''));
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new InvalidArgumentError(
      `expected a checkpoint's number as taskweave checkpoints lists it (2 or #2), got "${value}"`,
    );
  return parsed;
}

/** Parses an amount of US dollars above zero (`2`, `2.50`, `$2.50`). */
export function parseDollars(value: string): number {
  const parsed = Number(value.trim().replace(/^\$/, ''));
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0)
    throw new InvalidArgumentError(`expected an amount of US dollars above zero, e.g. 2.50, got "${value}"`);
  return parsed;
}

/** Parses a TCP port: 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535)
    throw new InvalidArgumentError(`expected a port from 0 (any free one) to 65535, got "${value}"`);
  return parsed;
}

/** Parses a URL option (http or https), with an error commander shows as usage. */
export function parseHttpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected a URL such as http://127.0.0.1:8000/v1, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError(`expected an http:// or https:// URL, got "${value}"`);
  return value;
}
