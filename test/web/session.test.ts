import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSizes, report } from './metrics.js';
import {
  launchBrowser,
  openApp,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

/** Budgets the served build must meet: first paint of the session page, and what it loads first (gzip). */
const FIRST_PAINT_BUDGET_MS = 2000;
const INITIAL_BUNDLE_BUDGET_BYTES = 250_000;

const REASON = (plan: string, finish = false) =>
  `${plan}\n\`\`\`json\n{ "plan": "${plan}", "tools_to_consider": ["write_file"], "finish": ${finish} }\n\`\`\``;

/** A roa run: reason → write_file → observe (go on), reason → run_command → observe (done). */
const ROA_SCRIPT = {
  latencyMs: 300,
  turns: [
    { phase: 'reason', text: REASON('Write greet.mjs first') },
    {
      phase: 'act',
      text: 'Writing the script.',
      toolCalls: [
        { name: 'write_file', args: { path: 'greet.mjs', content: "console.log('Hello, Ada!');\n" } },
      ],
    },
    {
      phase: 'observe',
      text: 'Written, not run yet.\n```json\n{ "observation": "greet.mjs exists but was not run", "should_continue": true, "final_answer": null }\n```',
    },
    { phase: 'reason', text: REASON('Run it') },
    { phase: 'act', toolCalls: [{ name: 'run_command', args: { command: 'node greet.mjs' } }] },
    {
      phase: 'observe',
      text: 'It printed the greeting.\n```json\n{ "observation": "node greet.mjs printed Hello, Ada!", "should_continue": false, "final_answer": "greet.mjs prints **Hello, Ada!**" }\n```',
    },
  ],
};

let browser: Browser;
const servers: ServeProcess[] = [];

async function serve(script: unknown, args?: string[]): Promise<ServeProcess> {
  const server = await startServe({ script, args });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

function card(page: Page, step: number) {
  return page.getByRole('article', { name: new RegExp(`^Step ${step}\\b`) });
}

describe('the web UI session view (chromium against taskweave serve)', { timeout: 60_000 }, () => {
  it('streams reason, tool and observe cards of a goal sent with the controls; measures first paint and bundle', async () => {
    const server = await serve(ROA_SCRIPT);
    const { page, context } = await openApp(browser, server);
    const paint = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    );
    await page.getByRole('combobox', { name: 'Loop' }).selectOption('roa');
    await page.getByRole('spinbutton', { name: 'Max steps' }).fill('7');
    await sendGoal(page, 'write a greeting script and check that it runs');

    await expect.poll(() => page.url()).toMatch(/#\/s\/ses_/);
    await card(page, 1).getByText('Write greet.mjs first').first().waitFor();
    // The first card shows while the run goes on: it streams, it is not drawn at the end.
    expect(await page.getByRole('region', { name: 'Run result' }).count()).toBe(0);
    await expect.poll(() => page.getByText('roa · up to 7 steps').count()).toBe(1);
    await screenshot(page, 'session-running');

    const result = page.getByRole('region', { name: 'Run result' });
    await result.waitFor();
    expect(await result.textContent()).toContain('greet.mjs prints Hello, Ada!');
    expect(await result.locator('strong', { hasText: 'Hello, Ada!' }).count()).toBe(1);
    const first = card(page, 1);
    expect(await first.getByRole('heading', { name: 'Reason' }).count()).toBe(1);
    expect(await first.getByRole('heading', { name: 'Observe' }).count()).toBe(1);
    expect(await first.locator('summary', { hasText: 'write_file' }).textContent()).toContain('greet.mjs');
    expect(await card(page, 2).locator('summary', { hasText: 'run_command' }).textContent()).toContain(
      'exit 0',
    );
    await screenshot(page, 'session-completed');

    const sizes = bundleSizes();
    const initial = sizes
      .filter((asset) => asset.file.startsWith('index-'))
      .reduce((sum, asset) => sum + asset.gzip, 0);
    await report('web-metrics', {
      firstContentfulPaintMs: Math.round(paint),
      initialGzipBytes: initial,
      sizes,
    });
    expect(paint).toBeLessThan(FIRST_PAINT_BUDGET_MS);
    expect(initial).toBeLessThan(INITIAL_BUNDLE_BUDGET_BYTES);
    await context.close();
  });

  it('shows a question as a flashing banner with the answer field focused; the answer resumes the run', async () => {
    const server = await serve({
      turns: [
        {
          toolCalls: [{ name: 'request_input', args: { question: 'Which **port** should the server use?' } }],
        },
        { when: '8080', text: 'The server now uses port 8080.' },
      ],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'set up the server');
    const banner = page.getByRole('alert', { name: 'The agent asks' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Which port should the server use?');
    expect(await banner.getAttribute('class')).toContain('flash');
    await expect
      // A string, evaluated in the page: the tests are type-checked without the DOM library.
      .poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')"))
      .toBe('Your answer');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toContain('taskweave asks you');
    await screenshot(page, 'question');
    await page.keyboard.type('8080');
    await page.keyboard.press('Enter');
    await page
      .getByRole('region', { name: 'Run result' })
      .getByText('The server now uses port 8080.')
      .waitFor();
    expect(await banner.count()).toBe(0);
    expect(await page.getByText('Your answer: 8080').count()).toBe(1);
    await expect.poll(() => page.title()).toBe('taskweave');
    await context.close();
  });

  it('Esc stops a run mid-command after a confirmation; a later message continues the session', async () => {
    const server = await serve({
      turns: [
        {
          text: 'Running the long job.',
          toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }],
        },
        { when: 'go on', text: 'Continued after the stop.' },
      ],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'run the long job');
    await page.locator('.tool-running summary', { hasText: 'sleep 30' }).waitFor();
    const sessionUrl = page.url();
    let confirmation = '';
    page.once('dialog', (dialog) => {
      confirmation = dialog.message();
      dialog.accept();
    });
    await page.keyboard.press('Escape');
    const stopped = page.getByRole('region', { name: 'Run result' }).filter({ hasText: 'Stopped' });
    await stopped.waitFor();
    expect(confirmation).toContain('A tool is running');
    // The result shows on agent_completion; the run ends (and Stop goes) on response_complete, the
    // event after it, which on a loaded machine can come a moment later.
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 10_000 }).toBe(0);

    await sendGoal(page, 'go on');
    await page
      .getByRole('region', { name: 'Run result' })
      .filter({ hasText: 'Continued after the stop.' })
      .waitFor();
    expect(page.url()).toBe(sessionUrl);
    expect(await page.locator('.goal').allTextContents()).toEqual(['run the long job', 'go on']);
    await context.close();
  });

  it('after a reload mid-run shows the whole session once, and goes on streaming', async () => {
    const write = (name: string) => ({
      latencyMs: 700,
      text: `Writing ${name}.`,
      toolCalls: [{ name: 'write_file', args: { path: name, content: `${name}\n` } }],
    });
    const server = await serve({
      turns: [write('a.txt'), write('b.txt'), write('c.txt'), { latencyMs: 700, text: 'Wrote a, b and c.' }],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'write three files');
    await card(page, 2).getByText('Writing b.txt.').waitFor();
    await page.reload();
    await page.getByRole('region', { name: 'Run result' }).filter({ hasText: 'Wrote a, b and c.' }).waitFor();
    for (const step of [1, 2, 3]) expect(await card(page, step).count()).toBe(1);
    // Step 4 only gave the final answer: the result shows it, its card is not drawn as well.
    expect(await card(page, 4).count()).toBe(0);
    expect(await page.getByText('Wrote a, b and c.').count()).toBe(1);
    expect(await page.locator('.goal').allTextContents()).toEqual(['write three files']);
    expect(await page.getByText('Writing a.txt.').count()).toBe(1);
    await context.close();
  });

  it('shows a lost connection, reconnects on its own and fills the gap from the last seq', async () => {
    const write = (name: string) => ({
      latencyMs: 500,
      text: `Writing ${name}.`,
      toolCalls: [{ name: 'write_file', args: { path: name, content: `${name}\n` } }],
    });
    const server = await serve({
      turns: [write('a.txt'), write('b.txt'), write('c.txt'), { latencyMs: 500, text: 'Wrote all three.' }],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // The page's WebSocket goes through the test to the real server, so the test can cut it.
    const connections: { close(): Promise<void> }[] = [];
    await page.routeWebSocket(/\/ws$/, async (socket) => {
      if (connections.length > 0) await new Promise((resolve) => setTimeout(resolve, 1500));
      socket.connectToServer();
      connections.push(socket);
    });
    await page.goto(server.url);
    await sendGoal(page, 'write three files');
    await card(page, 1).getByText('Writing a.txt.').waitFor();
    await connections[0]!.close();
    await page.getByRole('alert').filter({ hasText: 'Connection lost' }).waitFor();
    await screenshot(page, 'connection-lost');
    await page.getByRole('region', { name: 'Run result' }).filter({ hasText: 'Wrote all three.' }).waitFor();
    expect(connections.length).toBeGreaterThan(1);
    expect(await page.getByRole('alert').filter({ hasText: 'Connection lost' }).count()).toBe(0);
    for (const step of [1, 2, 3]) expect(await card(page, step).count()).toBe(1);
    expect(await page.getByText('Writing b.txt.').count()).toBe(1);
    expect(await page.getByText('Wrote all three.').count()).toBe(1);
    await context.close();
  });

  it('renders model markdown with highlighted code, and an <img onerror> and a javascript: link inert', async () => {
    const hostile =
      'Done. <img src=x onerror="window.__pwned = 1"> and [click me](javascript:window.__pwned=2)\n\n' +
      '```js\nconst answer = 42;\n```';
    const server = await serve({
      turns: [{ text: hostile }],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'say something dangerous');
    const result = page.getByRole('region', { name: 'Run result' });
    await result.waitFor();
    expect(await page.locator('.markdown img').count()).toBe(0);
    // Raw HTML is not parsed: the tag is dropped, the text around it stays.
    expect(await result.textContent()).toMatch(/Done\.\s+and click me/);
    const link = result.getByText('click me');
    const href = await link.getAttribute('href');
    expect(href ?? '').not.toMatch(/javascript/i);
    await link.click({ noWaitAfter: true }).catch(() => {});
    await page.waitForTimeout(300);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await result.locator('code .hljs-keyword', { hasText: 'const' }).count()).toBe(1);
    await context.close();
  });
});
