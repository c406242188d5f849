import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  launchProfile,
  openApp,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

/** A request a local web server got: what a page or the browser sent it. */
interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A web server on another 127.0.0.1 port, as a dev server the agent started would be: it records every request. */
async function startDevServer(): Promise<{ origin: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>dev server</title><p>dev server</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The answer shown for a goal: the run's result region with this text. */
function result(page: Page, text: string) {
  return page.getByRole('region', { name: 'Run result' }).filter({ hasText: text });
}

let browser: Browser;
const servers: ServeProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function serve(script: unknown, args?: string[]): Promise<ServeProcess> {
  const server = await startServe({ script, args });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

describe('the web UI and its access token', { timeout: 120_000 }, () => {
  it('opens the printed URL of a second server and of a restarted one in the same browser profile', async () => {
    const profile = await mkdtemp(path.join(tmpdir(), 'taskweave-profile-'));
    const context: BrowserContext = await launchProfile(profile);
    cleanups.push(async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    });
    const port = await freePort();
    const script = { turns: [{ text: 'Hello from the server.' }] };
    const first = await serve(script, ['--port', String(port)]);
    expect(first.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#token=[A-Za-z0-9_-]{43}$`));

    const page = await context.newPage();
    await page.goto(first.url);
    await sendGoal(page, 'say hello');
    await result(page, 'Hello from the server.').waitFor();
    // The token left the address bar (and so the history) at once.
    expect(page.url()).not.toContain('token');
    expect(await context.cookies()).toEqual([]);

    // A second server, opened in another tab of the same profile.
    const second = await serve({ turns: [{ text: 'Hello from the second server.' }] });
    const other = await context.newPage();
    await other.goto(second.url);
    await sendGoal(other, 'say hello');
    await result(other, 'Hello from the second server.').waitFor();

    // The first server restarts on its port with a new token; its printed URL, opened in the tab
    // that still shows the old one (only the fragment differs: the page is not loaded again by
    // the browser itself), works.
    await first.stop();
    const restarted = await serve({ turns: [{ text: 'Hello after the restart.' }] }, [
      '--port',
      String(port),
    ]);
    expect(new URL(restarted.url).hash).not.toBe(new URL(first.url).hash);
    await page.goto(restarted.url);
    await sendGoal(page, 'say hello again');
    await result(page, 'Hello after the restart.').waitFor();
    expect(page.url()).not.toContain('token');
    // A reload keeps the tab's token.
    await page.reload();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'access token' }).count()).toBe(0);
    await screenshot(page, 'token-after-restart');

    // A tab opened by hand (or by a middle click) gets the token from an open tab of this server…
    const byHand = await context.newPage();
    await byHand.goto(`http://127.0.0.1:${port}/#/sessions`);
    await byHand.getByRole('link', { name: /say hello again/ }).waitFor();
    // …and once no tab of it is open, says how to get in.
    await byHand.close();
    await page.close();
    const bare = await context.newPage();
    await bare.goto(`http://127.0.0.1:${port}/`);
    await bare.getByRole('alert').filter({ hasText: 'Open the URL taskweave serve printed' }).waitFor();
    await screenshot(bare, 'token-missing');
  });

  it('works in a browser holding a malformed taskweave_token cookie (it used to answer 500)', async () => {
    const server = await serve({ turns: [{ text: 'Hello despite the cookie.' }] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    cleanups.push(() => context.close());
    // Left by an older taskweave, or by anything else on 127.0.0.1 (cookies ignore ports).
    await context.addCookies([
      { name: 'taskweave_token', value: '%E0%A4%A', domain: '127.0.0.1', path: '/' },
    ]);
    const page = await context.newPage();
    const statuses: number[] = [];
    page.on('response', (response) => statuses.push(response.status()));
    await page.goto(server.url);
    await sendGoal(page, 'say hello');
    await result(page, 'Hello despite the cookie.').waitFor();
    expect(statuses.filter((status) => status >= 400)).toEqual([]);
  });

  it('gives a dev server on another local port that the browser visits no token', async () => {
    const dev = await startDevServer();
    cleanups.push(dev.close);
    const server = await serve({ turns: [{ text: `Read [the docs](${dev.origin}/docs).` }] });
    const token = new URLSearchParams(new URL(server.url).hash.slice(1)).get('token')!;
    const { context, page } = await openApp(browser, server);
    cleanups.push(() => context.close());
    await sendGoal(page, 'where are the docs');
    const answer = result(page, 'Read the docs.');
    await answer.waitFor();
    // The user follows the model's link, and later opens the dev server itself in this browser.
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      answer.getByRole('link', { name: 'the docs' }).click(),
    ]);
    await opened.waitForLoadState();
    await page.goto(`${dev.origin}/typed-by-hand`);
    const pages = dev.received.map((request) => request.url).filter((url) => url !== '/favicon.ico');
    expect(pages).toEqual(['/docs', '/typed-by-hand']);
    for (const request of dev.received) {
      expect(request.headers.cookie).toBeUndefined();
      // (The dev page's own favicon request names the dev page.)
      expect(request.headers.referer ?? '').not.toContain(server.origin);
      expect(JSON.stringify(request)).not.toContain(token);
    }
    expect(dev.received.find((request) => request.url === '/docs')?.headers.referer).toBeUndefined();
  });

  it('never fetches an image the model names; the policy refuses a planted one and nothing the app needs', async () => {
    const dev = await startDevServer();
    cleanups.push(dev.close);
    const secret = 'SECRET-FROM-THE-WORKSPACE';
    const server = await serve({
      turns: [
        {
          text: [
            `The chart: ![build chart](${dev.origin}/leak?${secret})`,
            '',
            'Run `npm test` to draw it again:',
            '',
            '```js',
            "console.log('highlighted');",
            '```',
          ].join('\n'),
        },
      ],
    });
    const { context, page } = await openApp(browser, server);
    cleanups.push(() => context.close());
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await sendGoal(page, 'show the chart');
    const answer = result(page, 'The chart:');
    await answer.waitFor();
    // The image is a link to it, not an <img>: no request leaves for it, with or without a click.
    const imageLink = answer.getByRole('link', { name: 'Image: build chart' });
    expect(await imageLink.getAttribute('href')).toBe(`${dev.origin}/leak?${secret}`);
    expect(await page.locator('.markdown img').count()).toBe(0);
    expect(await answer.locator('code.hljs').count()).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    expect(dev.received.filter((request) => request.url.startsWith('/leak'))).toEqual([]);
    // An <img> put in the page anyway (as a sanitiser slip would) is refused by the policy.
    const planted = JSON.stringify(`${dev.origin}/leak?by-policy`);
    await page.evaluate(
      `document.body.append(Object.assign(document.createElement('img'), { src: ${planted} }))`,
    );
    await expect.poll(() => refused.some((text) => text.includes('/leak?by-policy'))).toBe(true);
    expect(dev.received).toEqual([]);
    // Nothing the page needs was refused: only the planted image.
    expect(refused.filter((text) => !text.includes('/leak?by-policy'))).toEqual([]);
  });
});
