import { createInterface } from 'node:readline/promises';

import {
  describeWorkspaceModel,
  EndpointTrustError,
  originOf,
  Runtime,
  type RuntimeOptions,
  rememberWorkspaceModel,
  trustBaseUrl,
  WorkspaceModelError,
} from '../../runtime/index.js';
import { terminalSafe, writeTerminal } from '../../util/terminal-write.js';

/** At most this many questions before opening gives up (a model and a key: two). */
const MAX_QUESTIONS = 3;

/**
 * Opens the runtime; when a workspace config chose the model or its URL and the user has not
 * accepted that for this workspace, or would send the user's API key to a server their own
 * config does not trust, and `ask` is set (a person at a terminal), asks once. Yes remembers the
 * answer in the user config and opens again; no, Enter, Ctrl-C or Ctrl-D keep the refusal (the
 * error, exit 2).
 */
export async function openRuntimeAskingTrust(options: RuntimeOptions, ask: boolean): Promise<Runtime> {
  for (let asked = 0; ; asked += 1) {
    try {
      return await Runtime.open(options);
    } catch (error) {
      if (!ask || asked >= MAX_QUESTIONS) throw error;
      if (error instanceof WorkspaceModelError) {
        const { choice } = error;
        const lines = [
          `The workspace config ${choice.workspaceFile} chooses ${choice.model === undefined ? 'where the model is sent' : 'the model'}:`,
          ...describeWorkspaceModel(choice),
          'Your goal and the files taskweave reads go there.',
        ];
        if (!(await confirm(lines, 'Use it for this workspace? [y/N] '))) throw error;
        await rememberWorkspaceModel(choice);
        writeTerminal(process.stdout, `Remembered for ${choice.workspace} in ${choice.userFile}.\n`);
        continue;
      }
      if (error instanceof EndpointTrustError) {
        const lines = [
          `The workspace config ${error.workspaceFile} sends your ${error.provider} key to:`,
          `  URL:    ${error.url}`,
          `  origin: ${originOf(error.url)}`,
        ];
        if (!(await confirm(lines, 'Trust this URL? [y/N] '))) throw error;
        await trustBaseUrl({ userFile: error.userFile, url: error.url });
        writeTerminal(
          process.stdout,
          `Trusted ${error.url}: added to "trustedBaseUrls" in ${error.userFile}.\n`,
        );
        continue;
      }
      throw error;
    }
  }
}

/** Shows `lines` and asks `question` on the terminal; only y or yes is a yes (no, Enter, Ctrl-C, Ctrl-D: no). */
export async function confirm(lines: string[], question: string): Promise<boolean> {
  writeTerminal(process.stdout, `${lines.join('\n')}\n`);
  const prompt = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const controller = new AbortController();
  // Ctrl-C and Ctrl-D at this question are a no, not a hang.
  prompt.on('SIGINT', () => controller.abort());
  prompt.on('close', () => controller.abort());
  try {
    const answer = await prompt.question(terminalSafe(question), { signal: controller.signal });
    const choice = answer.trim().toLowerCase();
    return choice === 'y' || choice === 'yes';
  } catch {
    process.stdout.write('\n');
    return false;
  } finally {
    prompt.close();
  }
}

/**
 * When the workspace's database was created for another folder (copied or cloned here) and a
 * person is at the terminal, asks whether to work the tasks queued in it; yes makes it this
 * workspace's (Runtime.trustDatabase). Otherwise its queued work is left, as the runtime says.
 */
export async function askToTrustDatabase(runtime: Runtime, ask: boolean): Promise<void> {
  const foreign = runtime.foreignDatabase;
  if (!ask || foreign === undefined) return;
  const origin = foreign.recorded;
  const lines = [
    `The database ${runtime.databasePath} was not created for this workspace:`,
    origin === undefined
      ? '  it records no origin (made elsewhere, or by an older taskweave)'
      : `  created for ${origin.workspace} by ${origin.user} on ${origin.host}`,
    'The tasks queued in it would run here (a repository can ship a database with work queued).',
  ];
  if (await confirm(lines, 'Work the tasks queued in it here? [y/N] ')) await runtime.trustDatabase();
}
