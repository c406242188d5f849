/** What `taskweave sessions export` does: loaded when it runs. */
import type { StoreCliOptions } from '../options.js';
import { exportSession } from '../session-export.js';
import type { WorkspaceAccess } from './workspace-access.js';

export type ExportOptions = StoreCliOptions & { format?: string; output?: string };

/**
 * Exports one session: to stdout, or atomically to the file `-o` names (then one line saying
 * where it went).
 */
export async function exportSessionAction(
  access: WorkspaceAccess,
  id: string,
  options: ExportOptions,
): Promise<void> {
  const result = await exportSession(access.sessions, { id, format: options.format, output: options.output });
  if (result.file === undefined) {
    process.stdout.write(result.text);
    return;
  }
  const size = Buffer.byteLength(result.text, 'utf8');
  process.stdout.write(
    `Exported session ${result.sessionId} as ${result.format} to ${result.file} (${size} bytes).\n`,
  );
}
