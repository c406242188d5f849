import { createInterface } from 'node:readline/promises';
import { EndpointTrustError, Runtime, type RuntimeOptions, trustBaseUrl } from '../../runtime/index.js';

/**
 * Opens the runtime; when a workspace config would send the user's API key to a server their
 * own config does not trust, and `ask` is set (a person at a terminal), asks once whether to
 * trust it. Yes adds the URL to the user config and opens again; no, Enter, Ctrl-C or Ctrl-D
 * keep the refusal (the EndpointTrustError, exit 2).
 */
export async function openRuntimeAskingTrust(options: RuntimeOptions, ask: boolean): Promise<Runtime> {
  try {
    return await Runtime.open(options);
  } catch (error) {
    if (!ask || !(error instanceof EndpointTrustError)) throw error;
    if (!(await confirmTrust(error))) throw error;
    await trustBaseUrl({ userFile: error.userFile, url: error.url });
    process.stdout.write(`Trusted ${error.url}: added to "trustedBaseUrls" in ${error.userFile}.\n`);
    return await Runtime.open(options);
  }
}

/** Asks `… Trust this URL? [y/N]` on the terminal; only y or yes trusts it. */
async function confirmTrust(error: EndpointTrustError): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const controller = new AbortController();
  // Ctrl-C and Ctrl-D at this question are a no, not a hang.
  prompt.on('SIGINT', () => controller.abort());
  prompt.on('close', () => controller.abort());
  try {
    const answer = await prompt.question(
      `The workspace config ${error.workspaceFile} sends your ${error.provider} key to ${error.url}. Trust this URL? [y/N] `,
      { signal: controller.signal },
    );
    const choice = answer.trim().toLowerCase();
    return choice === 'y' || choice === 'yes';
  } catch {
    process.stdout.write('\n');
    return false;
  } finally {
    prompt.close();
  }
}
