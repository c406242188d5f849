import { writeFile } from 'node:fs/promises';
import path from 'node:path';
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

const delegate = (job: string, id: string) => ({ name: 'delegate', id, args: { agent: 'explore', job } });
const read = (file: string) => ({ name: 'read_file', args: { path: file } });

describe('subagents in the web UI (chromium against taskweave serve)', { timeout: 120_000 }, () => {
  it('two children running at once: a live card each under its call, with their steps; collapsible once done', async () => {
    const server = await startServe({
      args: ['--approval', 'auto', '--sandbox', 'off'],
      files: async (workspace) => {
        await writeFile(path.join(workspace, 'alpha.ts'), 'export const alpha = 1;\n');
        await writeFile(path.join(workspace, 'beta.ts'), 'export const beta = 2;\n');
      },
      script: {
        turns: [
          {
            text: 'Two explorers look at once.',
            toolCalls: [
              delegate('Find where alpha is defined', 'c1'),
              delegate('Find where beta is defined', 'c2'),
            ],
          },
          { agent: 'explore', when: 'alpha', latencyMs: 300, toolCalls: [read('alpha.ts')] },
          { agent: 'explore', when: 'beta', latencyMs: 300, toolCalls: [read('beta.ts')] },
          { agent: 'explore', when: 'alpha', latencyMs: 2500, text: 'alpha is 1, in alpha.ts line 1' },
          { agent: 'explore', when: 'beta', latencyMs: 2500, text: 'beta is 2, in beta.ts line 1' },
          { text: 'alpha is 1 and beta is 2.' },
        ],
      },
    });
    servers.push(server);
    const { page } = await openApp(browser, server);
    await sendGoal(page, 'where are alpha and beta defined?');
    const alpha = page
      .getByRole('group', { name: 'Subagent explore' })
      .filter({ hasText: 'Find where alpha' });
    const beta = page.getByRole('group', { name: 'Subagent explore' }).filter({ hasText: 'Find where beta' });
    // Both live at once, open, each with its own first step and its read_file inside.
    await alpha.locator('code.tool-name', { hasText: 'read_file' }).waitFor();
    await beta.locator('code.tool-name', { hasText: 'read_file' }).waitFor();
    expect(await alpha.getAttribute('open')).not.toBeNull();
    expect(await beta.getAttribute('open')).not.toBeNull();
    expect(await alpha.textContent()).toContain('running');
    await screenshot(page, 'sub-two-children-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'sub-two-children-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Run result').waitFor();
    expect(await alpha.textContent()).toContain('alpha is 1, in alpha.ts line 1');
    expect(await alpha.textContent()).toMatch(/2 steps/);
    expect(await alpha.getAttribute('open')).toBeNull();
    await alpha.locator(':scope > summary').click();
    await alpha.getByRole('region', { name: 'explore step 2' }).waitFor();
    await screenshot(page, 'sub-children-done-1280');
  });
});
