import {
  type ClientMessage,
  clientMessageSchema,
  MAX_CLIENT_FRAME_BYTES,
} from '../../events/client-messages.js';
import { zodMessage } from '../http-errors.js';

/** A frame as the server understood it: a valid message, or the error to send back. */
export type ParsedFrame = { ok: true; message: ClientMessage } | { ok: false; code: string; message: string };

const KNOWN_TYPES = new Set(clientMessageSchema.options.map((option) => option.shape.type.value as string));

/** Parses and validates one client frame (protocol.md); nothing invalid gets further. */
export function parseFrame(data: Buffer, isBinary: boolean): ParsedFrame {
  if (data.length > MAX_CLIENT_FRAME_BYTES)
    return {
      ok: false,
      code: 'frame_too_large',
      message: `The message is ${data.length} bytes; the limit is ${MAX_CLIENT_FRAME_BYTES}.`,
    };
  if (isBinary)
    return { ok: false, code: 'invalid_json', message: 'Binary frames are not accepted: send JSON text.' };
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch (error) {
    return {
      ok: false,
      code: 'invalid_json',
      message: `The message is not valid JSON: ${(error as Error).message}`,
    };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof type !== 'string')
    return {
      ok: false,
      code: 'invalid_message',
      message: 'A message is a JSON object with a string `type`.',
    };
  if (!KNOWN_TYPES.has(type))
    return {
      ok: false,
      code: 'unknown_type',
      message: `Unknown message type "${type}"; the types are ${[...KNOWN_TYPES].join(', ')}.`,
    };
  const parsed = clientMessageSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      code: 'invalid_message',
      message: `Invalid ${type} message: ${zodMessage(parsed.error)}`,
    };
  return { ok: true, message: parsed.data };
}
