import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  SCREENSHOTS,
  type ServeProcess,
  screenshot,
  startServe,
} from './serve-harness.js';

/** Where the screenshots a person looks at are kept beside the notes. */
const NOTES_SHOTS = '/work/notes/shots';

const SCRIPT = {
  latencyMs: 50,
  turns: [{ text: 'The header is **red** because `header { background: #c82828 }` sets it.' }],
};

/** A real PNG of one colour, with a lighter band so a thumbnail shows which one it is. */
async function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  const band = await sharp({
    create: { width, height: Math.max(1, Math.round(height / 4)), channels: 3, background: '#ffffff' },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .composite([{ input: band, top: 0, left: 0 }])
    .png()
    .toBuffer();
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A file to give the page: its name, type and bytes. */
interface GivenFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** In the page: a DataTransfer holding the given files, built from their bytes (base64). */
function dataTransfer(files: GivenFile[]): string {
  const given = files.map((file) => ({
    name: file.name,
    type: file.type,
    base64: file.bytes.toString('base64'),
  }));
  return `(() => {
    const data = new DataTransfer();
    for (const file of ${JSON.stringify(given)}) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      data.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return data;
  })()`;
}

/** Pastes files into the message field: a real paste event whose clipboard holds files built in the page. */
async function pasteFiles(page: Page, files: GivenFile[]): Promise<void> {
  await page.evaluate(`(() => {
    const field = document.querySelector('textarea[aria-label="Message"]');
    const clipboardData = ${dataTransfer(files)};
    field.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  })()`);
}

/** Drags files over the composer and drops them there, as a file manager does. */
async function dropFiles(page: Page, files: GivenFile[]): Promise<void> {
  await page.evaluate(`(() => {
    const form = document.querySelector('form.composer');
    const init = { dataTransfer: ${dataTransfer(files)}, bubbles: true, cancelable: true };
    for (const type of ['dragenter', 'dragover', 'drop']) form.dispatchEvent(new DragEvent(type, init));
  })()`);
}

/** The natural size of the image a CSS selector finds (waiting for it to be drawn), and its drawn size. */
async function imageSize(page: Page, selector: string): Promise<{ natural: number[]; drawn: number[] }> {
  await page.locator(selector).waitFor();
  return page.evaluate(`(() => {
    const image = document.querySelector(${JSON.stringify(selector)});
    return image.decode().then(() => ({
      natural: [image.naturalWidth, image.naturalHeight],
      drawn: [image.width, image.height],
    }));
  })()`);
}

/** Saves a screenshot under test-results/web and, for the notes, /work/notes/shots/img-web-<name>.png. */
async function shoot(page: Page, name: string): Promise<void> {
  await screenshot(page, `img-web-${name}`);
  await mkdir(NOTES_SHOTS, { recursive: true }).catch(() => {});
  await copyFile(
    path.join(SCREENSHOTS, `img-web-${name}.png`),
    path.join(NOTES_SHOTS, `img-web-${name}.png`),
  ).catch(() => {});
}

let browser: Browser;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

describe('Images in the web UI (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('pasted and dropped images upload, one is removed, the message carries the rest; the timeline, a reload and the export show them', async () => {
    const server = await startServe({ script: SCRIPT });
    servers.push(server);
    const token = new URL(server.url).hash.replace('#token=', '');
    const red = await png(640, 400, [200, 40, 40]);
    const blue = await png(300, 300, [40, 80, 200]);
    const green = await png(200, 500, [40, 160, 60]);
    const { page, context } = await openApp(browser, server);
    const agentStarts: { images?: { hash: string; media_type: string; width: number; height: number }[] }[] =
      [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => {
        const event = JSON.parse(String(frame.payload));
        if (event.type === 'agent_update' && event.update_type === 'agent_start') agentStarts.push(event);
      }),
    );
    // The socket listener sees frames of a socket opened after it: open the page again.
    await page.reload();
    const field = page.getByRole('textbox', { name: 'Message' });
    await field.fill('Why is the header red?');

    await pasteFiles(page, [{ name: 'screenshot.png', type: 'image/png', bytes: red }]);
    await dropFiles(page, [
      { name: 'mock-up.png', type: 'image/png', bytes: blue },
      { name: 'extra.png', type: 'image/png', bytes: green },
    ]);
    const attached = page.getByRole('list', { name: 'Attached images' });
    // Each uploads at once: stored, with the size the server found.
    await expect
      .poll(() => page.locator('form.composer .attachment-stored').count(), { timeout: 30_000 })
      .toBe(3);
    expect(await attached.getByText('640×400').count()).toBe(1);
    expect(await attached.getByText('200×500').count()).toBe(1);
    // The paste attached the file and typed nothing into the message.
    expect(await field.inputValue()).toBe('Why is the header red?');
    await attached.getByRole('button', { name: 'Remove extra.png' }).click();
    expect(await attached.getByRole('listitem').count()).toBe(2);
    expect(await attached.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('screenshot.png'),
      expect.stringContaining('mock-up.png'),
    ]);
    await shoot(page, 'composer-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'composer-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('region', { name: 'Run result' }).waitFor();
    // The composer is empty again: text and attachments went with the message.
    expect(await field.inputValue()).toBe('');
    expect(await page.locator('form.composer .attachment').count()).toBe(0);

    // The server got both images, in order, as records of the bytes sent.
    expect(agentStarts).toHaveLength(1);
    expect(agentStarts[0]?.images).toEqual([
      { hash: sha256(red), media_type: 'image/png', width: 640, height: 400 },
      { hash: sha256(blue), media_type: 'image/png', width: 300, height: 300 },
    ]);
    const stored = await fetch(`${server.origin}/api/images/${sha256(red)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(Buffer.from(await stored.arrayBuffer()).equals(red)).toBe(true);

    // The timeline shows them as thumbnails drawn from the stored bytes, sized from the records.
    const shown = page.locator('.item-goal').getByRole('list', { name: 'Attached images' });
    const first = shown.getByRole('img', { name: 'Image 1 of 2 (PNG, 640×400)', exact: true });
    await first.waitFor();
    expect(await imageSize(page, '.item-goal img[alt="Image 1 of 2 (PNG, 640×400)"]')).toEqual({
      natural: [640, 400],
      drawn: [200, 125],
    });
    expect(await imageSize(page, '.item-goal img[alt="Image 2 of 2 (PNG, 300×300)"]')).toEqual({
      natural: [300, 300],
      drawn: [150, 150],
    });
    await shoot(page, 'timeline-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'timeline-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A click opens the full image.
    const [full] = await Promise.all([context.waitForEvent('page'), first.click()]);
    await full.waitForLoadState();
    expect((await imageSize(full, 'img')).natural).toEqual([640, 400]);
    await full.close();

    // A reload replays the session from the log: the images are still there.
    await page.reload();
    expect((await imageSize(page, '.item-goal img[alt="Image 2 of 2 (PNG, 300×300)"]')).natural).toEqual([
      300, 300,
    ]);

    // The HTML export holds the images themselves and shows them offline, loading nothing.
    const menu = page.getByRole('group', { name: 'Export this session' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('button', { name: 'HTML' }).click(),
    ]);
    const file = path.join(
      await mkdtemp(path.join(tmpdir(), 'taskweave-download-')),
      download.suggestedFilename(),
    );
    await download.saveAs(file);
    const html = await readFile(file, 'utf8');
    expect(html).toContain(`src="data:image/png;base64,${red.toString('base64')}"`);
    expect(html).toContain(`src="data:image/png;base64,${blue.toString('base64')}"`);
    const offline = await browser.newContext({ javaScriptEnabled: false });
    const view = await offline.newPage();
    const requests: string[] = [];
    view.on('request', (request) => {
      if (!request.url().startsWith('data:')) requests.push(request.url());
    });
    await view.goto(pathToFileURL(file).href);
    expect((await imageSize(view, 'img[alt="Image 1 of 2 (PNG, 640×400)"]')).natural).toEqual([640, 400]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await offline.close();
    await context.close();
  });

  it('a file that is not an image is refused with the server’s reason beside the composer; the message is kept', async () => {
    const server = await startServe({ script: SCRIPT });
    servers.push(server);
    const { page, context } = await openApp(browser, server, { width: 390, height: 844 });
    const field = page.getByRole('textbox', { name: 'Message' });
    await field.fill('Look at this');
    await page.getByLabel('Image files').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('These are notes, not a picture.\n'),
    });
    const refusal = page.getByRole('list', { name: 'Attached images' }).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/not .*(PNG|image)|unsupported|type/i);
    expect(await field.inputValue()).toBe('Look at this');
    await shoot(page, 'refused-390');
    await context.close();
  });

  it('while an image uploads, Start waits and says why; it sends once the upload is done', async () => {
    const server = await startServe({ script: SCRIPT });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The upload reaches the real server, only later.
    await page.route('**/api/images', async (route) => {
      await held;
      await route.continue();
    });
    const field = page.getByRole('textbox', { name: 'Message' });
    await field.fill('What is this?');
    await pasteFiles(page, [
      { name: 'slow.png', type: 'image/png', bytes: await png(120, 80, [90, 90, 90]) },
    ]);
    const start = page.getByRole('button', { name: 'Start' });
    await page.getByRole('status').filter({ hasText: 'Waiting for an image to upload…' }).waitFor();
    expect(await start.isDisabled()).toBe(true);
    await field.press('Enter');
    expect(await field.inputValue()).toBe('What is this?');
    release();
    await expect.poll(() => start.isDisabled()).toBe(false);
    await start.click();
    await page
      .locator('.item-goal')
      .getByRole('img', { name: 'Image 1 of 1 (PNG, 120×80)', exact: true })
      .waitFor();
    await context.close();
  });
});
