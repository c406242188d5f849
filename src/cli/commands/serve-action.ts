import type { RequestPolicy } from '../../runtime/index.js';
import { serve } from '../../server/serve.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import { runtimeOptions } from '../interactive/cli-runtime.js';
import { askToTrustDatabase, openRuntimeAskingTrust } from '../interactive/trust-prompt.js';
import type { ServeCliOptions } from '../options.js';
import { styleFor } from '../render/terminal.js';
import { UsageError } from '../usage-error.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

/** `taskweave serve`: opens the workspace, serves it until Ctrl-C or SIGTERM, then closes cleanly. */
export async function serveWorkspace(options: ServeCliOptions): Promise<number> {
  // Questions, plans and failed tasks are answered from the web UI or another client.
  const policy: RequestPolicy = { input: 'ask', plan: options.yes ? 'approve' : 'ask', failure: 'ask' };
  // A workspace's model or server not yet accepted is asked about when a person is at the terminal.
  const ask = !!process.stdin.isTTY && !!process.stdout.isTTY;
  const runtime = await openRuntimeAskingTrust(runtimeOptions(options, policy), ask);
  try {
    await askToTrustDatabase(runtime, ask);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const style = styleFor(process.stdout);
  // Every line goes through the stripping: the model's name and goals come from outside.
  const say = (text: string) => writeTerminal(process.stdout, `${text}\n`);
  runtime.onNotice(say);
  runtime.bus.subscribe((event) => {
    if (event.type === 'agent_update' && event.update_type === 'agent_start')
      say(
        style.dim(
          `▶ session ${event.session_id}${event.continued ? ' continues' : ''}: ${event.goal.split('\n')[0]}`,
        ),
      );
    else if (event.type === 'response_complete')
      say(style.dim(`■ session ${event.session_id}: ${event.status}`));
  });
  // Only the server's clients can switch it (there is no prompt here): whoever holds the token can,
  // so the terminal shows every switch rather than asking (see README, Safety).
  runtime.safety.onApprovalModeChange((mode) =>
    say(
      mode === 'auto'
        ? style.yellow('approval mode switched to auto by a client: tool calls now run unasked')
        : `approval mode switched to ${mode} by a client`,
    ),
  );
  let server: Awaited<ReturnType<typeof serve>>;
  try {
    server = await serve({ runtime, host: options.host, port: options.port, work: options.work });
  } catch (error) {
    await runtime.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(
        `port ${options.port} on ${options.host} is already in use (another taskweave serve, or another server?). ` +
          'Choose another with --port, or --port 0 for any free one.',
      );
    throw error;
  }
  say(`taskweave serve · workspace ${runtime.workspace.root} · model ${runtime.model.id}`);
  if (!LOOPBACK.test(options.host))
    writeTerminal(
      process.stderr,
      `${styleFor(process.stderr).yellow('warning:')} listening on ${options.host}: anyone who can reach this machine and has the token can run commands in this workspace.\n`,
    );
  say(`Open ${style.bold(server.url)}`);
  say(style.dim('Ctrl-C stops the server (running sessions stop at their next step).'));
  return new Promise((resolve) => {
    let signals = 0;
    const stop = () => {
      signals += 1;
      if (signals > 1) process.exit(EXIT.stopped);
      say('stopping: running sessions end at their next step — Ctrl-C again exits at once');
      void server
        .close()
        .then(() => runtime.close())
        .then(() => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(EXIT.completed);
        });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
