import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  planFitted,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

const TASKS = [
  { id: 'setup', title: 'Create the project', check: 'test -f setup.txt' },
  { id: 'api', title: 'Write the API', depends_on: ['setup'] },
  { id: 'ui', title: 'Write the UI', depends_on: ['setup'] },
  { id: 'docs', title: 'Write the docs', depends_on: ['api'] },
].map((task) => ({ description: `Do ${task.title}.`, depends_on: [], ...task }));

let browser: Browser;
let server: ServeProcess | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServe({
    script: {
      turns: [{ text: 'I will plan this.', toolCalls: [{ name: 'plan_actions', args: { tasks: TASKS } }] }],
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The size a node's title is drawn at: its font size times the graph's zoom. */
function drawnTitleSize(page: Page): Promise<number> {
  return page.evaluate(`(() => {
    const title = document.querySelector('.task-node-title');
    const viewport = document.querySelector('.react-flow__viewport');
    const scale = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    return parseFloat(getComputedStyle(title).fontSize) * scale;
  })()`);
}

/**
 * Whether what is drawn at the centre of an element is that element (or inside it); null when the
 * centre is scrolled out of the window.
 */
function onTop(page: Page, selector: string): Promise<boolean | null> {
  return page.evaluate(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    const box = element.getBoundingClientRect();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    if (y < 0 || y > window.innerHeight) return null;
    return box.height > 0 && element.contains(document.elementFromPoint(x, y));
  })()`);
}

describe('the plan panel’s layout (chromium against taskweave serve)', { timeout: 60_000 }, () => {
  it('draws node text readable at 1280×800, and at 390×844 never over the session header', async () => {
    const { page, context } = await openApp(browser, server!);
    await sendGoal(page, 'build the app with an API, a UI and docs');
    await page.getByRole('button', { name: 'Approve plan' }).waitFor();
    await planFitted(page, 4);
    expect(await drawnTitleSize(page)).toBeGreaterThanOrEqual(12);
    await screenshot(page, 'plan-layout-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    await planFitted(page, 4);
    for (const scrolled of [false, true]) {
      if (scrolled) await page.locator('main').evaluate((main) => main.scrollTo(0, 400));
      for (const selector of ['.session-header h1', '.plan-header h2'])
        expect(await onTop(page, selector), selector).not.toBe(false);
    }
    // Scrolled to the conversation, its header is in view and not covered.
    await page.locator('.session-header').evaluate((header) => header.scrollIntoView());
    expect(await onTop(page, '.session-header h1')).toBe(true);
    await screenshot(page, 'plan-layout-390-conversation');
    await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
    expect(await drawnTitleSize(page)).toBeGreaterThanOrEqual(10);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'plan-layout-390');
    await context.close();
  });
});
