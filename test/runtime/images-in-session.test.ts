import { describe, expect, it } from 'vitest';
import { solidPng } from '../helpers/images.js';
import { openRuntime } from './helpers.js';

/** Submits a goal (with images) and waits for its end. */
async function runToEnd(
  runtime: Awaited<ReturnType<typeof openRuntime>>,
  goal: string,
  options: { sessionId?: string; images?: string[] } = {},
) {
  const submission = await runtime.submit(goal, {
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    settings: options.images === undefined ? {} : { images: options.images },
  });
  if (submission.kind !== 'started') throw new Error('not started');
  return (await submission.done).result;
}

describe('images stay with the session', () => {
  it('a later message of the session (a new process, as resume is) sends the image again, loaded by its hash', async () => {
    const png = await solidPng(12, 9);
    // The script model's prompt text names a sent image by the sha256 of its bytes.
    const first = await openRuntime([{ text: 'unused' }]);
    const { record } = await first.takeImage(png);
    const sent = `[file image/png sha256:${record.hash}]`;
    const turns = [
      { when: sent, text: 'I see a red rectangle.' },
      { when: sent, text: 'Still the same red rectangle.' },
    ];
    const runtime = await openRuntime(turns, { cwd: first.workspace.root });
    const one = await runtime.submit('what is this?', { settings: { images: [record.hash] } });
    if (one.kind !== 'started') throw new Error('not started');
    const result = (await one.done).result;
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'I see a red rectangle.' });
    // A second process on the same workspace continues the session: the image is in its history.
    const resumed = await openRuntime(turns.slice(1), { cwd: runtime.workspace.root });
    const two = await runToEnd(resumed, 'and now?', { sessionId: result.sessionId });
    expect(two).toMatchObject({ status: 'completed', finalAnswer: 'Still the same red rectangle.' });
  });

  it('a model without vision gets earlier images as markers, not bytes', async () => {
    const png = await solidPng(12, 9);
    const seeing = await openRuntime([{ text: 'Seen.' }]);
    const { record } = await seeing.takeImage(png);
    const first = await runToEnd(seeing, 'look', { images: [record.hash] });
    const textOnly = await openRuntime(
      [{ when: `[image image/png 12×9 sha256:${record.hash.slice(0, 12)}`, text: 'I was told of an image.' }],
      { cwd: seeing.workspace.root },
    );
    (textOnly.model as { vision?: boolean }).vision = false;
    const second = await runToEnd(textOnly, 'and now?', { sessionId: first.sessionId });
    expect(second).toMatchObject({ status: 'completed', finalAnswer: 'I was told of an image.' });
  });
});
