import type { ApiError } from '../../../src/events/api.js';
import { accessToken } from '../connection/access-token.js';
import { ApiRequestError } from '../connection/api.js';

/** The formats the server exports a session to (`GET /api/sessions/:id/export?format=`). */
export type ExportFormat = 'html' | 'md' | 'json';

/**
 * Downloads a session's export: fetched with the tab's token (a plain link could not carry it),
 * then saved under the name the server gives, through a link to the fetched file.
 */
export async function downloadExport(sessionId: string, format: ExportFormat): Promise<void> {
  const token = accessToken();
  const response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/export?format=${format}`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Partial<ApiError>;
    throw new ApiRequestError(
      response.status,
      body.error?.code ?? 'http_error',
      body.error?.message ?? response.statusText,
    );
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `taskweave-${sessionId}.${format}`;
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the object URL may go once it has been read.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
