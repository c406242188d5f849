import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamScript } from '../../bench/cross-process-stream.js';
import { CLI_PATH } from '../helpers/cli.js';
import { launchBrowser, openApp, type ServeProcess, screenshot, startServe } from './serve-harness.js';

/*
 * The web UI of `taskweave serve` shows a run that another process (`taskweave run` in the same
 * workspace) is doing: the session is in the Sessions list, and opening it streams the run's
 * steps as they happen, up to its answer.
 */

const STEPS = 12;
/** The answer comes this long after the last step: the page is open by then (the list refreshes every 5 s). */
const FINAL_LATENCY_MS = 8_000;
const GOAL = 'write twelve files from another terminal';

let browser: Browser;
let server: ServeProcess | undefined;
let run: ChildProcess | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  run?.kill('SIGKILL');
  await browser?.close();
  await server?.stop();
});

describe("the web UI shows another process's run live", { timeout: 90_000 }, () => {
  it('lists the session and streams its steps while it runs', async () => {
    server = await startServe({ script: { turns: [{ text: 'The server runs nothing here.' }] } });
    const script = path.join(server.workspace, '..', `${path.basename(server.workspace)}-run.json`);
    await writeFile(script, JSON.stringify(streamScript(STEPS, 100, FINAL_LATENCY_MS)));
    const { page } = await openApp(browser, server);

    const child = spawn(
      process.execPath,
      [
        CLI_PATH,
        'run',
        '--approval',
        'auto',
        '--max-steps',
        String(STEPS + 5),
        '--model',
        `script:${script}`,
        '--cwd',
        server.workspace,
        GOAL,
      ],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    run = child;
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    await page.getByRole('link', { name: 'Sessions' }).click();
    const row = page.getByRole('link').filter({ hasText: GOAL });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const chat = page.getByRole('region', { name: 'Session' });
    // The steps show while the other process is still running; its answer arrives live.
    await chat
      .getByText(`step ${STEPS - 1}`, { exact: true })
      .first()
      .waitFor({ timeout: 15_000 });
    expect(child.exitCode).toBeNull();
    await screenshot(page, 'other-process-live');
    expect(await exited).toBe(0);
    await chat.getByText('All written.').first().waitFor({ timeout: 5_000 });
    const latest = page.getByRole('button', { name: '↓ Latest' });
    if (await latest.isVisible()) await latest.click();
    await screenshot(page, 'other-process-done');
  });
});
