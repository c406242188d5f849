import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { launchBrowser, openApp, type ServeProcess, screenshot, startServe } from './serve-harness.js';

/*
 * A `taskweave work --watch` worker (no terminal) runs a goal whose model asks a question: its
 * run ends waiting for the answer. The web UI of a `serve --no-work` in another process shows the
 * question as open, the user answers there, and the worker goes on with the answer to the end.
 */

const GOAL = 'write the name into name.txt';

let browser: Browser;
let server: ServeProcess | undefined;
let worker: ChildProcess | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await browser?.close();
  await server?.stop();
});

describe("the web UI answers a worker's question", { timeout: 90_000 }, () => {
  it('shows the question of a run that ended waiting, and the worker goes on with the answer', async () => {
    server = await startServe({
      script: { turns: [{ text: 'The server runs nothing here.' }] },
      args: ['--no-work'],
    });
    const script = path.join(server.workspace, '..', `${path.basename(server.workspace)}-worker.json`);
    await writeFile(
      script,
      JSON.stringify({
        turns: [
          {
            when: 'The user answered: Ada Lovelace',
            toolCalls: [{ name: 'write_file', args: { path: 'name.txt', content: 'Ada Lovelace\n' } }],
          },
          { when: 'The user answered: Ada Lovelace', text: 'Wrote the name Ada Lovelace.' },
          { toolCalls: [{ name: 'request_input', args: { question: 'Which name goes in name.txt?' } }] },
        ],
      }),
    );
    const child = spawn(
      process.execPath,
      [
        CLI_PATH,
        'work',
        '--watch',
        '--approval',
        'auto',
        '--model',
        `script:${script}`,
        '-C',
        server.workspace,
      ],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    worker = child;
    const added = await runCli(['tasks', 'add', '-C', server.workspace, GOAL]);
    expect(added.code, added.stderr).toBe(0);

    const { page } = await openApp(browser, server);
    await page.getByRole('link', { name: 'Sessions' }).click();
    const row = page.getByRole('link').filter({ hasText: GOAL });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const banner = page.getByRole('alert', { name: 'The agent asks' });
    await banner.getByText('Which name goes in name.txt?').waitFor({ timeout: 15_000 });
    await screenshot(page, 'answer-worker-question-asked');
    // The question's step says it waits (a server can answer it), not that nobody can.
    const asked = (await page.getByRole('region', { name: 'Session' }).textContent()) ?? '';
    expect(asked).toContain('waits for an answer');
    expect(asked).not.toContain('nobody to answer');
    await banner.getByRole('textbox', { name: 'Your answer' }).fill('Ada Lovelace');
    await banner.getByRole('button', { name: 'Answer' }).click();

    const chat = page.getByRole('region', { name: 'Session' });
    await chat.getByText('Wrote the name Ada Lovelace.').first().waitFor({ timeout: 20_000 });
    await banner.waitFor({ state: 'detached', timeout: 5_000 });
    const latest = page.getByRole('button', { name: '↓ Latest' });
    if (await latest.isVisible()) await latest.click();
    await screenshot(page, 'answer-worker-question-answered');
    // The session is still shown under the user's goal, not the message taskweave continued it with.
    expect((await page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe(GOAL);
    expect(await readFile(path.join(server.workspace, 'name.txt'), 'utf8')).toBe('Ada Lovelace\n');
    expect(child.exitCode).toBeNull();
  });
});
