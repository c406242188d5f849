import type { Command } from 'commander';
import { addRunOptions, type ServeCliOptions } from '../options.js';
import { parsePort } from '../usage-error.js';

/** The address `taskweave serve` binds unless told otherwise: this machine only. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

/** Adds `taskweave serve`: the local server (REST, WebSocket, web UI) over the workspace. */
export function addServeCommand(program: Command, setExitCode: (code: number) => void): void {
  addRunOptions(
    program
      .command('serve')
      .description(
        'serve the web UI, a REST API and a WebSocket for this workspace on this machine; goals sent there run through the queue',
      ),
  )
    .option('--port <n>', 'the port (0 picks a free one)', parsePort, 0)
    .option(
      '--host <address>',
      `the address to listen on; anything but a loopback address exposes the server to the network`,
      DEFAULT_SERVE_HOST,
    )
    .option(
      '--no-work',
      'do not work the queue in the background: tasks added elsewhere are left to `taskweave work` workers (goals sent here still start here when the queue is free)',
    )
    .option(
      '--trust-db',
      "the database was created for another folder (copied or cloned here): make it this workspace's and work the tasks queued in it",
    )
    .addHelpText(
      'after',
      '\nExamples:\n  taskweave serve                      # prints the URL to open (with its access token)\n  taskweave serve --port 8700 -C ~/code/webapp\n',
    )
    .action(async (options: ServeCliOptions) => {
      const { serveWorkspace } = await import('./serve-action.js');
      setExitCode(await serveWorkspace(options));
    });
}
