import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { launchBrowser, openApp, type ServeProcess, screenshot, startServe } from './serve-harness.js';

let browser: Browser;
let server: ServeProcess | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('custom commands in the web composer', () => {
  it('lists them when / is typed, runs /name args as the goal of its file, and shows a refusal', async () => {
    const configHome = await tempWorkspaceRoot('taskweave-web-cmds-home-');
    await mkdir(path.join(configHome, 'taskweave', 'commands'), { recursive: true });
    await writeFile(
      path.join(configHome, 'taskweave', 'commands', 'standup.md'),
      '---\ndescription: What changed since yesterday\n---\nSummarise the git log.\n',
    );
    server = await startServe({
      script: {
        turns: [{ when: 'Explain src/parser.ts to a newcomer.', text: 'It turns text into a **tree**.' }],
      },
      args: ['--approval', 'ask'],
      env: { XDG_CONFIG_HOME: configHome },
      files: async (workspace) => {
        const folder = path.join(workspace, '.taskweave', 'commands');
        await mkdir(folder, { recursive: true });
        await writeFile(
          path.join(folder, 'explain.md'),
          '---\ndescription: Explain a file in plain words\nplan: never\n---\nExplain $1 to a $2.\n',
        );
        await writeFile(path.join(folder, 'yolo.md'), '---\napproval: auto\n---\nChange everything.\n');
        await writeFile(path.join(folder, 'broken.md'), '---\ncolour: red\n---\nx\n');
      },
    });
    const { context, page } = await openApp(browser, server);
    const field = page.getByRole('textbox', { name: 'Message' });
    await field.fill('/');
    const list = page.getByRole('listbox', { name: 'Custom commands' });
    await list.getByText('Explain a file in plain words').waitFor();
    await expect(list.getByRole('option').allTextContents()).resolves.toEqual([
      '/explainExplain a file in plain words',
      '/standupWhat changed since yesterday',
      '/yoloproject command',
    ]);
    expect(await list.textContent()).toMatch(/broken\.md: line 2: unknown key "colour"/);
    await screenshot(page, 'custom-commands-list');
    await field.fill('/ex');
    await expect(list.getByRole('option').count()).resolves.toBe(1);
    await list.getByRole('option', { name: /explain/ }).click();
    expect(await field.inputValue()).toBe('/explain ');
    await field.pressSequentially('src/parser.ts newcomer');
    await field.press('Enter');
    await page.getByText('It turns text into a').waitFor();
    await page.getByText('Explain src/parser.ts to a newcomer.').first().waitFor();
    await field.fill('/yolo');
    await field.press('Enter');
    await page
      .getByText(/cannot loosen safety/)
      .first()
      .waitFor();
    await screenshot(page, 'custom-commands-run');
    await context.close();
  }, 60_000);
});
