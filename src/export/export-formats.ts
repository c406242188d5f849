import type { ServerEvent } from '../events/registry.js';
import { stripControlSequences } from '../util/terminal-text.js';
import { renderHtml } from './html-export.js';
import type { ImageBytes } from './html-images.js';

export { type ImageBytes, sessionImageHashes } from './html-images.js';

import { renderMarkdown } from './markdown-export.js';
import { buildSessionExport, type ExportedSession } from './session-export.js';

/** The formats a session exports to. */
export const EXPORT_FORMATS = ['md', 'json', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The default format: markdown. */
export const DEFAULT_EXPORT_FORMAT: ExportFormat = 'md';

/** The media type each format is served with. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

/** Whether a word names an export format. */
export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** The format a file name's extension names (`.md`, `.markdown`, `.json`, `.html`, `.htm`), if any. */
export function exportFormatOfPath(file: string): ExportFormat | undefined {
  const extension = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  if (extension === 'md' || extension === 'markdown') return 'md';
  if (extension === 'json') return 'json';
  if (extension === 'html' || extension === 'htm') return 'html';
  return undefined;
}

/** The file name an export of a session is saved under by default: `taskweave-ses_ab12cd34.html`. */
export function defaultExportFileName(sessionId: string, format: ExportFormat): string {
  return `taskweave-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.${format}`;
}

/**
 * A session and its logged events as the text of one export format. The markdown and the HTML
 * carry no escape sequence or control character (a command's colours, a hostile output's
 * terminal codes): they are read in viewers and terminals. The JSON keeps every output exactly
 * (JSON escapes control characters itself).
 */
export function renderSessionExport(options: {
  session: ExportedSession;
  events: readonly ServerEvent[];
  format: ExportFormat;
  exportedAt?: number;
  /** The stored bytes of the session's images by hash: the HTML embeds them (the others name them). */
  images?: ImageBytes;
}): string {
  const document = buildSessionExport(options);
  switch (options.format) {
    case 'json':
      return `${JSON.stringify(document, null, 2)}\n`;
    case 'md':
      return stripControlSequences(renderMarkdown(document));
    case 'html':
      return stripControlSequences(renderHtml(document, { images: options.images }));
  }
}
