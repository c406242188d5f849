import type { ApiError } from '../../../src/events/api.js';
import type { ImageRecord } from '../../../src/events/images.js';
import { accessToken } from './access-token.js';
import { ApiRequestError } from './api.js';

export type { ImageRecord };

/** The tab's token as the header every /api call carries (an `<img src>` could not carry it). */
function authorization(): Record<string, string> {
  const token = accessToken();
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** A refused request as an error carrying the server's code and message (the type it found, the size and the limit). */
async function refusal(response: Response): Promise<ApiRequestError> {
  const body = (await response.json().catch(() => ({}))) as Partial<ApiError>;
  return new ApiRequestError(
    response.status,
    body.error?.code ?? 'http_error',
    body.error?.message ?? `The server answered ${response.status} ${response.statusText}.`,
  );
}

/**
 * Uploads an image's bytes as they are (`POST /api/images`); the server decides the type from
 * the bytes, scales a large one down and answers with its record. A refusal throws with the
 * server's message.
 */
export async function uploadImage(file: Blob): Promise<ImageRecord> {
  let response: Response;
  try {
    response = await fetch('/api/images', {
      method: 'POST',
      headers: { ...authorization(), 'content-type': 'application/octet-stream' },
      body: file,
    });
  } catch {
    throw new Error('The upload did not reach the server: check the connection and attach the image again.');
  }
  if (!response.ok) throw await refusal(response);
  return (await response.json()) as ImageRecord;
}

/** A stored image's bytes (`GET /api/images/:hash`), fetched with the tab's token. */
export async function fetchImage(hash: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(`/api/images/${encodeURIComponent(hash)}`, {
    headers: authorization(),
    signal,
  });
  if (!response.ok) throw await refusal(response);
  return response.blob();
}
