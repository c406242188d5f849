import { serveAcp } from '../../acp/serve-acp.js';
import { EXIT } from '../exit-codes.js';
import { scriptPathFromShell } from '../interactive/script-path.js';
import type { AcpCliOptions } from '../options.js';

/**
 * `taskweave acp`: serves the editor on stdio until it closes the pipe. Each session opens the
 * folder the editor names with these options; logs go to stderr only.
 */
export async function runAcp(options: AcpCliOptions): Promise<number> {
  const log = (text: string) => process.stderr.write(`taskweave acp: ${text}\n`);
  await serveAcp(
    {
      model: scriptPathFromShell(options.model),
      baseUrl: options.baseUrl,
      db: options.db,
      store: options.store,
      maxSteps: options.maxSteps,
      plan: options.plan,
      loop: options.loop,
      approval: options.approval,
      sandbox: options.sandbox,
      network: options.network,
      ...(options.lsp === false ? { lsp: false } : {}),
      inputTimeoutMs: options.inputTimeout === undefined ? undefined : options.inputTimeout * 1000,
    },
    { input: process.stdin, output: process.stdout, log },
  );
  return EXIT.completed;
}
