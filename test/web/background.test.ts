import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

let browser: Browser;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

const TOKEN = `303.${process.pid}${Date.now() % 100_000}`;
const SERVER = `sleep ${TOKEN} & node -e "let n = 0; console.log('listening on 4000'); setInterval(() => console.log('GET /health ' + ++n), 300)"; wait`;

function sleepersRunning(): number {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.trim() === `sleep ${TOKEN}`).length;
}

describe('the background commands panel (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('lists the commands with their last lines, and Stop ends one with its processes', async () => {
    const server = await startServe({
      args: ['--approval', 'auto'],
      script: {
        turns: [
          { toolCalls: [{ name: 'run_command', args: { command: SERVER, background: true } }] },
          {
            toolCalls: [
              { name: 'run_command', args: { command: 'echo migrated; exit 1', background: true } },
            ],
          },
          { text: 'The dev server runs in the background as bg1.' },
        ],
      },
    });
    servers.push(server);
    const { page } = await openApp(browser, server);
    await sendGoal(page, 'start the dev server');
    await page.getByLabel('Run result').waitFor();
    const panel = page.getByRole('region', { name: 'Background commands' });
    await panel
      .getByText(/GET \/health \d+/)
      .first()
      .waitFor();
    await panel.getByText('exited 1').waitFor();
    expect(await panel.textContent()).toContain('migrated');
    expect(sleepersRunning()).toBe(1);
    await screenshot(page, 'background-panel');
    expect(await panel.getByRole('button', { name: 'Stop bg2' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Stop bg1' }).click();
    await panel.getByText('stopped by the user').waitFor();
    expect(await panel.getByRole('button', { name: 'Stop bg1' }).count()).toBe(0);
    expect(sleepersRunning()).toBe(0);
    await screenshot(page, 'background-panel-stopped');
  });
});
