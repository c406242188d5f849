import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { noisePng, sha256, solidPng } from '../helpers/images.js';
import { api, is, startServer, TestClient, type TestServer } from './helpers.js';

/** POSTs raw bytes to /api/images, as the web UI does. */
async function upload(target: TestServer, bytes: Uint8Array, contentType = 'application/octet-stream') {
  const response = await fetch(`${target.base}/api/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType },
    body: bytes,
  });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
  return { status: response.status, body: (await response.json()) as any };
}

describe('images over HTTP', () => {
  it('POST /api/images stores the bytes by hash (201 and the record); GET serves them, immutable', async () => {
    const target = await startServer([]);
    const png = await solidPng(30, 20);
    // The Content-Type says JPEG: the type comes from the bytes.
    const created = await upload(target, png, 'image/jpeg');
    expect(created).toEqual({
      status: 201,
      body: { hash: sha256(png), media_type: 'image/png', width: 30, height: 20 },
    });
    const response = await fetch(`${target.base}/api/images/${sha256(png)}`, {
      headers: { authorization: `Bearer ${target.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), png)).toBe(0);
  });

  it('refuses what is no supported image (415), too large (413), empty or a malformed hash (400), unknown (404), no token (401)', async () => {
    const target = await startServer([]);
    const text = await upload(target, Buffer.from('hello, I am a text file renamed .png\n'), 'image/png');
    expect(text.status).toBe(415);
    expect(text.body.error).toEqual({
      code: 'unsupported_image_type',
      message: 'This is not a supported image: it is text (use PNG, JPEG, GIF or WebP).',
    });
    const big = Buffer.alloc(21 * 1024 * 1024);
    (await solidPng(4, 4)).copy(big);
    const tooLarge = await upload(target, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.message).toBe('The image is 21.0 MB; the limit is 20.0 MB.');
    expect((await upload(target, new Uint8Array(0))).status).toBe(400);
    expect((await api(target, 'GET', '/api/images/not-a-hash')).status).toBe(400);
    const unknown = await api(target, 'GET', `/api/images/${'0'.repeat(64)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_image');
    const png = await solidPng(2, 2);
    expect((await api(target, 'GET', `/api/images/${sha256(png)}`, { token: null })).status).toBe(401);
    const anonymous = await fetch(`${target.base}/api/images`, { method: 'POST', body: png });
    expect(anonymous.status).toBe(401);
    // JSON routes still parse JSON (the raw-bytes parser is the image route's alone).
    expect((await api(target, 'POST', '/api/tasks', { body: { description: 'a task' } })).status).toBe(201);
  });

  it('refuses a body past the route’s limit in the server’s error shape, naming its size and the limit', async () => {
    const target = await startServer([]);
    const huge = Buffer.alloc(30 * 1024 * 1024);
    (await solidPng(4, 4)).copy(huge);
    const refused = await upload(target, huge);
    expect(refused).toEqual({
      status: 413,
      body: { error: { code: 'image_too_large', message: 'The image is 30.0 MB; the limit is 20.0 MB.' } },
    });
    // The server goes on taking images.
    expect((await upload(target, await solidPng(3, 3))).status).toBe(201);
  });

  it('scales an image of about 17 MB down to what providers take', async () => {
    const target = await startServer([]);
    const created = await upload(target, await noisePng(2600, 2200));
    expect(created.status).toBe(201);
    expect(Math.max(created.body.width, created.body.height)).toBe(2000);
  });
});

describe('images in a chat', () => {
  it('a chat with images: agent_start carries their records, the stored user message holds image parts, a replay gives the same agent_start', async () => {
    const target = await startServer([{ when: '[file image/png sha256:', text: 'A red rectangle.' }]);
    const png = await solidPng(40, 30);
    const { body: record } = await upload(target, png);
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'what is in this picture?', images: [record.hash] });
    const start = await client.next(is('agent_start'));
    expect(start).toMatchObject({ goal: 'what is in this picture?', images: [record] });
    const done = await client.next(is('response_complete'));
    expect(done).toMatchObject({ status: 'completed', final_answer: 'A red rectangle.' });
    // No event spells out the bytes.
    const base64 = png.toString('base64');
    expect(client.messages.some((message) => JSON.stringify(message).includes(base64))).toBe(false);
    const messages = await target.runtime.store.sessions.messages(start.session_id);
    expect(messages[0]?.content).toEqual([
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image', ...record },
    ]);
    const replay = await TestClient.open(target);
    replay.send({ type: 'subscribe', session_id: start.session_id, after_seq: 0 });
    const replayed = (await replay.next(is('agent_start'))) as ServerEvent;
    expect(replayed).toEqual(start);
  });

  it('an unknown hash or too many images get an error back and nothing starts', async () => {
    const target = await startServer([]);
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'look', images: ['a'.repeat(64)] });
    const error = await client.next(is('error'));
    expect(error).toMatchObject({ code: 'not_found' });
    expect((error as { message: string }).message).toContain(
      `No image is stored with the hash ${'a'.repeat(64)}`,
    );
    client.send({ type: 'chat', content: 'look', images: Array.from({ length: 9 }, () => 'b'.repeat(64)) });
    const tooMany = await client.next(is('error'), { after: client.messages.length });
    expect((tooMany as { message: string }).message).toContain('at most 8 images');
    expect(await target.runtime.store.sessions.listSessions()).toEqual([]);
    expect(client.messages.some(is('chat_accepted'))).toBe(false);
  });

  it('a model without vision is refused before any request, naming it', async () => {
    const target = await startServer([{ text: 'never sent' }], {});
    const png = await solidPng(4, 4);
    const { body: record } = await upload(target, png);
    (target.runtime.model as { vision?: boolean }).vision = false;
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'look', images: [record.hash] });
    const error = await client.next(is('error'));
    expect((error as { message: string }).message).toMatch(/^The model script:.* does not see images/);
    expect(await target.runtime.store.sessions.listSessions()).toEqual([]);
  });
});
