import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The spec Web-Bench's harness writes to take a screenshot of the page before a task's specs run
 * (its evaluator's utils/screenshot.ts): the task spec's own `test.beforeEach` (a project's
 * specs open their page there), then the page once the network is idle, saved to `file`.
 */
export function screenshotSpec(options: { beforeEach: string; file: string; esModule: boolean }): string {
  const load = options.esModule
    ? `import { test } from '@playwright/test'`
    : `const { test } = require('@playwright/test')`;
  return `${load}

${options.beforeEach}

test('Take Screenshot', async ({ page }) => {
  await page.waitForLoadState()
  await page.waitForLoadState('networkidle', { timeout: 5000 })
  await page.screenshot({ path: ${JSON.stringify(options.file)} })
})
`;
}

/**
 * A task spec's `test.beforeEach(…)` call, as Web-Bench's harness finds it (the text between the
 * call's balanced parentheses): opening `/index.html` when the task has no spec file, nothing
 * when its spec has no beforeEach.
 */
export async function specBeforeEach(taskSpec: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(taskSpec, 'utf8');
  } catch {
    return `test.beforeEach(async ({ page }) => {\n  await page.goto('/index.html')\n})`;
  }
  const start = text.indexOf('test.beforeEach(');
  if (start === -1) return '';
  const open = start + 'test.beforeEach('.length;
  let depth = 1;
  let end = open;
  while (end < text.length && depth > 0) {
    if (text[end] === '(') depth += 1;
    else if (text[end] === ')') depth -= 1;
    end += 1;
  }
  return `test.beforeEach(${text.slice(open, end - 1)})`;
}

/**
 * Writes the screenshot spec of task `index` into the harness's test folder (named for the port,
 * as Web-Bench does, so checks running at once do not share it); returns its path relative to
 * the harness and a function that removes it.
 */
export async function writeScreenshotSpec(options: {
  harness: string;
  index: number;
  port: number;
  file: string;
  esModule: boolean;
}): Promise<{ spec: string; remove: () => Promise<void> }> {
  const taskSpec = path.join(
    options.harness,
    'test',
    options.index === 0 ? 'init.spec.js' : `task-${options.index}.spec.js`,
  );
  const spec = path.join('test', `screenshot-${options.port}.spec.js`);
  const text = screenshotSpec({
    beforeEach: await specBeforeEach(taskSpec),
    file: options.file,
    esModule: options.esModule,
  });
  await writeFile(path.join(options.harness, spec), text);
  return { spec, remove: () => rm(path.join(options.harness, spec), { force: true }) };
}
