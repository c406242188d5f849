import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentUpdateOf, ServerEvent } from '../../src/events/registry.js';
import { api, is, startServer, TestClient } from './helpers.js';

const write = (file: string, content: string) => ({
  toolCalls: [{ name: 'write_file', args: { path: file, content } }],
});

describe('checkpoints over the server (GET …/checkpoints, restore_checkpoint)', () => {
  it('lists the steps that changed files; undo and redo reach every client following the session', async () => {
    const target = await startServer(
      [write('a.txt', 'one\n'), write('a.txt', 'two\n'), { text: 'Written.' }],
      {
        approval: 'auto',
      },
    );
    const root = target.runtime.workspace.root;
    const first = await TestClient.open(target);
    first.send({ type: 'chat', content: 'write a file twice' });
    const done = await first.next<ServerEvent & { session_id: string }>(is('response_complete'));
    const sessionId = done.session_id;
    const listed = await api(target, 'GET', `/api/sessions/${sessionId}/checkpoints`);
    expect(listed.status).toBe(200);
    expect(
      listed.body.checkpoints.map((c: { number: number; step: number; files: unknown }) => [
        c.number,
        c.step,
        c.files,
      ]),
    ).toEqual([
      [1, 1, [{ path: 'a.txt', action: 'added' }]],
      [2, 2, [{ path: 'a.txt', action: 'modified' }]],
    ]);

    const second = await TestClient.open(target);
    second.send({ type: 'subscribe', session_id: sessionId });
    await second.next(is('response_complete'));
    const seen = second.messages.length;
    first.send({ type: 'restore_checkpoint', session_id: sessionId, action: 'undo' });
    const undone = await second.next<AgentUpdateOf<'checkpoint_restored'> & ServerEvent>(
      is('checkpoint_restored'),
      {
        after: seen,
      },
    );
    expect(undone).toMatchObject({
      kind: 'undo',
      step: 2,
      files: [{ path: 'a.txt', action: 'written' }],
      conflicts: [],
    });
    expect(undone.seq).toBeGreaterThan(0);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');

    first.send({ type: 'restore_checkpoint', session_id: sessionId, action: 'rewind', to: 1 });
    await first.next(is('checkpoint_restored'), { after: first.messages.length });
    expect(existsSync(path.join(root, 'a.txt'))).toBe(false);
    const after = (await api(target, 'GET', `/api/sessions/${sessionId}/checkpoints`)).body.checkpoints;
    expect(after.map((c: { undone: string }) => c.undone)).toEqual(['yes', 'yes']);

    // A rewind without a target, and an unknown checkpoint, are refused with an error and change nothing.
    const before = first.messages.length;
    first.send({ type: 'restore_checkpoint', session_id: sessionId, action: 'rewind' });
    expect(await first.next(is('error'), { after: before })).toMatchObject({ code: 'bad_input' });
    first.send({ type: 'restore_checkpoint', session_id: sessionId, action: 'rewind', to: 7 });
    expect(await first.next(is('error'), { after: before + 1 })).toMatchObject({
      message: expect.stringMatching(/no checkpoint 7/),
    });

    // Redo puts back the last rewind, then the undo before it.
    first.send({ type: 'restore_checkpoint', session_id: sessionId, action: 'redo' });
    await first.next(is('checkpoint_restored'), { after: first.messages.length });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    first.send({ type: 'restore_checkpoint', session_id: sessionId, action: 'redo' });
    await first.next(is('checkpoint_restored'), { after: first.messages.length });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
  }, 60_000);
});
