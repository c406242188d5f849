import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

async function gitRepository(workspace: string, files: Record<string, string>) {
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(workspace, file), content);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-qm', 'first');
}

describe('Undo in the web UI (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('Undo on a step card lists the files, asks, puts them back; the step shows rewound, and Redo puts it again', async () => {
    const server = await startServe({
      args: ['--approval', 'auto', '--sandbox', 'off'],
      files: (workspace) => gitRepository(workspace, { 'config.json': '{ "port": 80 }\n' }),
      script: {
        turns: [
          {
            toolCalls: [
              { name: 'write_file', args: { path: 'src/server.ts', content: 'export const port = 8080;\n' } },
            ],
          },
          {
            toolCalls: [{ name: 'write_file', args: { path: 'config.json', content: '{ "port": 8080 }\n' } }],
          },
          { toolCalls: [{ name: 'run_command', args: { command: 'echo built > build.log' } }] },
          { text: 'The port is now 8080.' },
        ],
      },
    });
    servers.push(server);
    const file = (name: string) => path.join(server.workspace, name);
    const { page } = await openApp(browser, server);
    await sendGoal(page, 'move the server to port 8080');
    await page.getByLabel('Run result').waitFor();
    const step2 = page.getByRole('article', { name: 'Step 2' });
    await step2.getByRole('button', { name: 'Undo' }).waitFor();
    // A step that changed nothing has no Undo.
    expect(await page.getByRole('article', { name: 'Step 4' }).count()).toBe(0);
    await step2.getByRole('button', { name: 'Undo' }).click();
    const confirm = step2.getByRole('group', { name: 'Undo: confirm' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('~ config.json');
    expect(await confirm.textContent()).toContain('+ build.log');
    expect(await confirm.textContent()).toContain('The 1 later step that changed files is undone too');
    await screenshot(page, 'undo-confirm');
    await confirm.getByRole('button', { name: 'Undo these changes' }).click();
    const result = page.getByLabel('Undo result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Rewound checkpoints 2, 3.*2 files put back/);
    await page.getByRole('article', { name: 'Step 2' }).getByText('Rewound').waitFor();
    await page.getByRole('article', { name: 'Step 3' }).getByText('Rewound').waitFor();
    expect(await page.getByRole('article', { name: 'Step 1' }).getByText('Rewound').count()).toBe(0);
    expect(readFileSync(file('config.json'), 'utf8')).toBe('{ "port": 80 }\n');
    expect(existsSync(file('build.log'))).toBe(false);
    expect(existsSync(file('src/server.ts'))).toBe(true);
    await screenshot(page, 'undo-rewound');
    await result.getByRole('button', { name: 'Redo' }).click();
    await page.getByLabel('Undo result').nth(1).waitFor();
    await page.locator('article.step.rewound').first().waitFor({ state: 'detached' });
    expect(readFileSync(file('config.json'), 'utf8')).toBe('{ "port": 8080 }\n');
    expect(readFileSync(file('build.log'), 'utf8')).toBe('built\n');
  });

  it('Undo on a plan task (its node selected) puts back only that task’s files', async () => {
    const server = await startServe({
      args: ['--approval', 'auto', '--sandbox', 'off', '--yes', '--isolation', 'shared'],
      files: (workspace) => gitRepository(workspace, { 'README.md': '# app\n' }),
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'api', title: 'Write the API', description: 'api.ts' },
                    { id: 'docs', title: 'Write the docs', description: 'docs.md' },
                  ],
                },
              },
            ],
          },
          {
            task: 'api',
            toolCalls: [{ name: 'write_file', args: { path: 'api.ts', content: 'export {};\n' } }],
          },
          {
            task: 'docs',
            toolCalls: [{ name: 'write_file', args: { path: 'docs.md', content: '# Docs\n' } }],
          },
          { task: 'api', toolCalls: [{ name: 'task_completed', args: { summary: 'api written' } }] },
          { task: 'docs', toolCalls: [{ name: 'task_completed', args: { summary: 'docs written' } }] },
          { text: 'Both written.' },
        ],
      },
    });
    servers.push(server);
    const { page } = await openApp(browser, server);
    await sendGoal(page, 'write the api and the docs');
    await page.getByLabel('Run result').waitFor();
    await page.locator('.task-node[data-task-id="api"] button').click();
    const undo = page.getByRole('button', { name: 'Undo task api' });
    await undo.waitFor();
    await undo.click();
    const confirm = page.getByRole('group', { name: 'Undo task api: confirm' });
    expect(await confirm.textContent()).toContain('+ api.ts');
    expect(await confirm.textContent()).not.toContain('docs.md');
    await screenshot(page, 'undo-plan-task');
    await confirm.getByRole('button', { name: 'Undo these changes' }).click();
    await page.getByLabel('Undo result').waitFor();
    expect(existsSync(path.join(server.workspace, 'api.ts'))).toBe(false);
    expect(readFileSync(path.join(server.workspace, 'docs.md'), 'utf8')).toBe('# Docs\n');
  });
});
