import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_EXPORT_FORMAT,
  EXPORT_FORMATS,
  type ExportFormat,
  exportFormatOfPath,
  isExportFormat,
  renderSessionExport,
  sessionImageHashes,
} from '../export/export-formats.js';
import type { SessionBook } from '../runtime/books.js';
import { UsageError } from './usage-error.js';

/** What `sessions export` and `/export` were asked for. */
export interface ExportRequest {
  /** The session: an id, a unique start of one, or `last`. */
  id: string;
  /** md, json or html; without it, the output file's extension decides, else md. */
  format?: string;
  /** The file to write (atomically); without it, the text is returned for stdout. */
  output?: string;
  /** Where a relative output path starts. */
  cwd?: string;
}

/** What an export made: its text, and the file it was written to (when one was asked). */
export interface ExportResult {
  sessionId: string;
  format: ExportFormat;
  text: string;
  file?: string;
}

/** The format an export request names; a word that is no format is a usage error. */
export function exportFormatFor(request: Pick<ExportRequest, 'format' | 'output'>): ExportFormat {
  if (request.format !== undefined) {
    const word = request.format.toLowerCase();
    if (!isExportFormat(word))
      throw new UsageError(
        `"${request.format}" is not an export format: choose ${EXPORT_FORMATS.join(', ')}.`,
      );
    return word;
  }
  return (
    (request.output === undefined ? undefined : exportFormatOfPath(request.output)) ?? DEFAULT_EXPORT_FORMAT
  );
}

/**
 * Exports a session the user names: its logged events rendered in the format asked for, written
 * to the file asked for (whole or not at all) or returned. The format is checked before the
 * session is read, and an unknown session is the runtime's input error (exit 2).
 */
export async function exportSession(
  sessions: Pick<SessionBook, 'find' | 'events' | 'imageBytes'>,
  request: ExportRequest,
): Promise<ExportResult> {
  const format = exportFormatFor(request);
  const session = await sessions.find(request.id);
  const events = await sessions.events(session.id);
  // The HTML page embeds the images of the session's messages; the other formats name them.
  const images = format === 'html' ? await sessions.imageBytes(sessionImageHashes(events)) : undefined;
  const text = renderSessionExport({ session, events, format, images });
  if (request.output === undefined) return { sessionId: session.id, format, text };
  const file = path.resolve(request.cwd ?? process.cwd(), request.output);
  await writeFileAtomically(file, text);
  return { sessionId: session.id, format, text, file };
}

/**
 * Writes a file so that a reader sees the old content or the new, never half of it: the text goes
 * to a new temporary file in the same folder, is flushed, and is renamed over the target. A folder
 * that does not exist or cannot be written is the user's to fix (a usage error).
 */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EISDIR' || code === 'EROFS')
      throw new UsageError(`Cannot write the export to ${file}: ${describeWriteError(code)}.`);
    throw error;
  }
}

function describeWriteError(code: string): string {
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'its folder does not exist';
    case 'EISDIR':
      return 'it is a folder';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return 'permission denied';
  }
}
