import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specBeforeEach, writeScreenshotSpec } from '../../../src/eval/web-bench/screenshot.js';

/** A task spec as Web-Bench's are written: its page opened in a beforeEach with nested calls. */
const TASK_SPEC = `const { test, expect } = require('@playwright/test')

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await page.waitForSelector(getSelector('main'))
})

test('Check Hello World Existed', async ({ page }) => {
  await expect(page.getByText('Hello Blog')).toBeVisible()
})
`;

describe('the screenshot Web-Bench’s harness takes before a task’s specs', () => {
  let harness: string;
  beforeAll(async () => {
    harness = await mkdtemp(path.join('/var/tmp', 'taskweave-web-bench-shot-'));
    await writeFile(path.join(harness, 'task-1.spec.js'), TASK_SPEC);
    await writeFile(path.join(harness, 'task-2.spec.js'), "test('no beforeEach', async () => {})\n");
  });
  afterAll(async () => {
    await rm(harness, { recursive: true, force: true });
  });

  it('opens the page as the task’s own beforeEach does (balanced parentheses), /index.html without a spec, nothing without a beforeEach', async () => {
    expect(await specBeforeEach(path.join(harness, 'task-1.spec.js'))).toBe(
      "test.beforeEach(async ({ page }) => {\n  await page.goto('/')\n  await page.waitForSelector(getSelector('main'))\n})",
    );
    expect(await specBeforeEach(path.join(harness, 'task-9.spec.js'))).toContain("page.goto('/index.html')");
    expect(await specBeforeEach(path.join(harness, 'task-2.spec.js'))).toBe('');
  });

  it('writes a spec named for its port into test/, in the project’s module style, and removes it', async () => {
    const root = await mkdtemp(path.join('/var/tmp', 'taskweave-web-bench-shot-harness-'));
    try {
      await writeFile(path.join(root, 'package.json'), '{}');
      await mkdir(path.join(root, 'test'));
      await writeFile(path.join(root, 'test', 'task-1.spec.js'), TASK_SPEC);
      const written = await writeScreenshotSpec({
        harness: root,
        index: 1,
        port: 4321,
        file: '/run/x/task-1.png',
        esModule: true,
      });
      expect(written.spec).toBe(path.join('test', 'screenshot-4321.spec.js'));
      const text = await readFile(path.join(root, written.spec), 'utf8');
      expect(text).toContain("import { test } from '@playwright/test'");
      expect(text).toContain("await page.goto('/')");
      expect(text).toContain("waitForLoadState('networkidle', { timeout: 5000 })");
      expect(text).toContain('page.screenshot({ path: "/run/x/task-1.png" })');
      await written.remove();
      await expect(readFile(path.join(root, written.spec), 'utf8')).rejects.toThrow('ENOENT');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
