import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report } from './metrics.js';
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

async function serve(options: Parameters<typeof startServe>[0]): Promise<ServeProcess> {
  const server = await startServe(options);
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

const PHONE = { width: 390, height: 844 };

const LONG_ANSWER = Array.from({ length: 80 }, (_, index) => `Finding ${index + 1}: all is well here.`).join(
  '\n\n',
);

function result(page: Page, text: string) {
  return page.getByRole('region', { name: 'Run result' }).filter({ hasText: text });
}

/** Whether an element (of a selector, with a text) lies wholly inside the conversation's scrolling area as drawn now. */
function inConversation(page: Page, selector: string, text: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const scroller = document.querySelector('.scroller').getBoundingClientRect();
    const element = [...document.querySelectorAll(${JSON.stringify(selector)})].find((found) =>
      found.textContent.includes(${JSON.stringify(text)}),
    );
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1;
  })()`);
}

/**
 * How the page is laid out: which elements scroll besides the conversation (more content than
 * room, and an overflow that lets them scroll; the page itself always can; what is inside the
 * conversation, a wide code block say, scrolls with it), and the conversation's visible height.
 */
function layout(page: Page): Promise<{ scrolling: string[]; conversation: number; window: number }> {
  return page.evaluate(`(() => {
    const scrolling = [];
    const conversation = document.querySelector('.scroller');
    for (const element of [document.scrollingElement, ...document.querySelectorAll('body *')]) {
      if (conversation.contains(element)) continue;
      const style = getComputedStyle(element);
      const scrolls =
        element === document.scrollingElement ||
        ['auto', 'scroll'].includes(style.overflowY) ||
        ['auto', 'scroll'].includes(style.overflowX);
      const overflows =
        element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1;
      if (scrolls && overflows && element.clientHeight > 0)
        scrolling.push(element === document.scrollingElement ? 'page' : element.className || element.tagName);
    }
    return {
      scrolling,
      conversation: conversation.clientHeight,
      window: window.innerHeight,
    };
  })()`);
}

/** Whether the placeholder of a field can be read whole: its text fits the field without scrolling. */
function placeholderFits(page: Page, label: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const field = document.querySelector('textarea[aria-label="${label}"]');
    const copy = field.cloneNode();
    copy.value = field.placeholder;
    field.after(copy);
    const fits = copy.scrollHeight <= copy.clientHeight + 1 && copy.scrollWidth <= copy.clientWidth + 1;
    copy.remove();
    return fits;
  })()`);
}

/** How Delete in a task row is drawn, and the muted colour of the page. */
function deleteLook(page: Page, title: string) {
  return page.evaluate<{ border: string; background: string; colour: string; muted: string }>(`(() => {
    const button = document.querySelector('button[aria-label="Delete ${title}"]');
    const style = getComputedStyle(button);
    const muted = getComputedStyle(document.querySelector('.muted')).color;
    return { border: style.borderTopColor, background: style.backgroundColor, colour: style.color, muted };
  })()`);
}

describe('the web UI follows the work (issue 46, chromium against taskweave serve)', {
  timeout: 120_000,
}, () => {
  it('a goal sent while scrolled up brings the conversation to the bottom, at 1280 and at 390 px', async () => {
    const server = await serve({
      script: {
        turns: [
          { when: 'first', text: LONG_ANSWER },
          { when: 'second', latencyMs: 300, text: 'The second answer.' },
          { when: 'third', latencyMs: 300, text: 'The third answer.' },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'first survey');
    await result(page, 'Finding 80').waitFor({ timeout: 20_000 });
    const pill = page.getByRole('button', { name: '↓ Latest' });

    for (const [goal, answer, size] of [
      ['second survey', 'The second answer.', '1280'],
      ['third survey', 'The third answer.', '390'],
    ] as const) {
      if (size === '390') await page.setViewportSize(PHONE);
      await page.locator('.scroller').evaluate((scroller) => scroller.scrollTo(0, 0));
      await pill.waitFor();
      await sendGoal(page, goal);
      // The goal itself is in sight at once, before the run says anything…
      await expect.poll(() => inConversation(page, '.goal', goal), { timeout: 10_000 }).toBe(true);
      // …and what the run does follows it down to the result.
      await result(page, answer).waitFor({ timeout: 20_000 });
      await expect.poll(() => inConversation(page, '.completion', answer), { timeout: 5000 }).toBe(true);
      expect(await pill.count()).toBe(0);
      await screenshot(page, `web-ui-sent-while-scrolled-up-${size}`);
    }
    await context.close();
  });

  it('the approval panel at 1280 and 390 px; Stop while edit_file waits reads "not run", and the stop is told once', async () => {
    const longLine = `colour: ${'teal-and-a-little-green-'.repeat(8)}end`;
    const server = await serve({
      args: ['--approval', 'ask', '--sandbox', 'off'],
      files: (workspace) => writeFile(path.join(workspace, 'notes.txt'), 'colour: red\n'),
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'edit_file',
                args: { path: 'notes.txt', edits: [{ find: 'colour: red', replace: longLine }] },
              },
            ],
          },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'change the colour');
    const banner = page.getByRole('alert', { name: 'A tool call waits for your approval' });
    await banner.waitFor({ timeout: 20_000 });
    await screenshot(page, 'web-ui-approval-1280');

    await page.setViewportSize(PHONE);
    // Nothing but the conversation scrolls; a preview longer than its few lines scrolls down in
    // its own box (never sideways), so that the conversation keeps its half.
    await expect.poll(async () => (await layout(page)).scrolling).toEqual(['approval-preview']);
    const preview = banner.locator('.approval-preview');
    // The long line wraps: no sideways scrolling in the preview.
    expect(
      await preview.evaluate((element) => element.scrollWidth <= element.clientWidth + 1),
      'the preview wraps',
    ).toBe(true);
    expect(await preview.textContent()).toContain('end');
    expect(await placeholderFits(page, 'Why not (for Deny)'), 'the "Why not" placeholder fits').toBe(true);
    const { conversation, window } = await layout(page);
    await report('web-ui-approval-390', { conversation, window });
    expect(conversation, 'the conversation keeps half the height').toBeGreaterThanOrEqual(window / 2);
    await screenshot(page, 'web-ui-approval-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    const stopped = page.getByRole('region', { name: 'Run result' });
    await stopped.waitFor({ timeout: 20_000 });
    // What became of the call: it never ran, nobody allowed it.
    const item = page.locator('.approval-item');
    expect(await item.textContent()).toBe('edit_file not run: the run stopped before you answered.');
    expect(await page.locator('main').textContent()).not.toMatch(/allowed/);
    // One stop, told once, with its count in words that agree.
    expect(await stopped.textContent()).toMatch(/^Stopped by the user1 step · /);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text.match(/Stopped/g), text).toHaveLength(1);
    await screenshot(page, 'web-ui-approval-stopped-1280');
    await context.close();
  });

  it('the failure decision at 1280 and 390 px: one scrolling area, its field readable, half the height for the conversation', async () => {
    const server = await serve({
      args: ['--yes'],
      script: {
        turns: [
          {
            text: 'I will plan this.',
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'port', title: 'Free the port', description: 'Free port 8080.', depends_on: [] },
                    {
                      id: 'serve',
                      title: 'Start the server',
                      description: 'Start it on 8080.',
                      depends_on: ['port'],
                    },
                  ],
                },
              },
            ],
          },
          {
            task: 'port',
            toolCalls: [{ name: 'fail_task', args: { reason: 'port 8080 is taken by another process' } }],
          },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'start the server on 8080');
    const decision = page.getByRole('alert', { name: 'A task failed' });
    await decision.getByText('port 8080 is taken').waitFor({ timeout: 20_000 });
    await page.locator('.task-node').first().waitFor();
    await screenshot(page, 'web-ui-failure-1280');

    await page.setViewportSize(PHONE);
    await expect.poll(async () => (await layout(page)).scrolling).toEqual([]);
    expect(await placeholderFits(page, 'What to change (for Revise)')).toBe(true);
    const { conversation, window } = await layout(page);
    await report('web-ui-failure-390', { conversation, window });
    expect(conversation, 'the conversation keeps half the height').toBeGreaterThanOrEqual(window / 2);
    // The graph folded away while the decision waits is a tap away.
    expect(await page.locator('.task-node').count()).toBe(0);
    await page.getByRole('button', { name: 'Show the plan' }).click();
    await page.locator('.task-node').first().waitFor();
    await page.getByRole('button', { name: 'Hide the plan' }).click();
    await screenshot(page, 'web-ui-failure-390');
    await decision.getByRole('button', { name: 'Abort' }).click();
    await page.getByRole('region', { name: 'Run result' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('the / list offers a command added to .taskweave/commands without a reload', async () => {
    const server = await serve({
      script: { turns: [{ text: 'Nothing to do.' }] },
      files: async (workspace) => {
        await mkdir(path.join(workspace, '.taskweave', 'commands'), { recursive: true });
        await writeFile(
          path.join(workspace, '.taskweave', 'commands', 'explain.md'),
          '---\ndescription: Explain a file\n---\nExplain $1.\n',
        );
      },
    });
    const { page, context } = await openApp(browser, server);
    const field = page.getByRole('textbox', { name: 'Message' });
    const list = page.getByRole('listbox', { name: 'Custom commands' });
    await field.fill('/');
    await list.getByText('Explain a file').waitFor();
    await field.fill('');
    await writeFile(
      path.join(server.workspace, '.taskweave', 'commands', 'release.md'),
      '---\ndescription: Cut a release\n---\nTag and publish.\n',
    );
    await field.fill('/');
    await list.getByText('Cut a release').waitFor({ timeout: 5000 });
    expect(await list.getByRole('option').allTextContents()).toEqual([
      '/explainExplain a file',
      '/releaseCut a release',
    ]);
    await context.close();
  });

  it('the page opened after a restart shows the last session; "+ New" still starts one', async () => {
    const first = await serve({ script: { turns: [{ text: 'Hello before the restart.' }] } });
    const before = await openApp(browser, first);
    await sendGoal(before.page, 'say hello');
    await result(before.page, 'Hello before the restart.').waitFor({ timeout: 20_000 });
    await before.context.close();
    await first.stop();

    const restarted = await serve({
      workspace: first.workspace,
      script: { turns: [{ text: 'Hello after the restart.' }] },
    });
    const { page, context } = await openApp(browser, restarted);
    await result(page, 'Hello before the restart.').waitFor({ timeout: 10_000 });
    expect(await page.locator('.session-header h1').textContent()).toBe('say hello');
    expect(page.url()).toMatch(/#\/s\/[^/]+$/);
    await page.getByRole('link', { name: 'New session' }).click();
    await page.getByText('Give taskweave a goal').waitFor();
    await context.close();
  });

  it('says what an undo of one file does in the singular, and draws Delete in a list lightly', async () => {
    const server = await serve({
      args: ['--sandbox', 'off'],
      script: {
        turns: [
          { when: 'write', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
          { when: 'write', text: 'Wrote a.txt.' },
          { when: 'wait', latencyMs: 60_000, text: 'Still thinking.' },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'write a file');
    await result(page, 'Wrote a.txt.').waitFor({ timeout: 20_000 });
    await page.getByRole('article', { name: 'Step 1' }).getByRole('button', { name: 'Undo' }).click();
    const confirm = page.getByRole('group', { name: 'Undo: confirm' });
    expect(await confirm.textContent()).toContain('This file goes back to how it was before:');

    await page.getByRole('link', { name: 'Tasks' }).click();
    const field = page.getByRole('textbox', { name: 'New task' });
    for (const title of ['wait for the build', 'write the changelog']) {
      await field.fill(title);
      await field.press('Enter');
    }
    const remove = page
      .getByRole('listitem', { name: 'Task write the changelog' })
      .getByRole('button', { name: /^Delete/ });
    await remove.waitFor({ timeout: 10_000 });
    const look = await deleteLook(page, 'write the changelog');
    // No red frame, no fill: a quiet word in the row's muted colour until pointed at.
    expect(look.border).toBe('rgba(0, 0, 0, 0)');
    expect(look.background).toBe('rgba(0, 0, 0, 0)');
    expect(look.colour).toBe(look.muted);
    await context.close();
  });
});
