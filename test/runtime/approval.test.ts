import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASK_ALL, nextEvent, openRuntime, record, update } from './helpers.js';

const command = (line: string) => ({ name: 'run_command', args: { command: line } });

describe('approvals answered through the runtime (as the server will)', () => {
  it('lists the approval, refuses a wrong kind of answer, passes a denial reason to the model', async () => {
    const runtime = await openRuntime(
      [
        { toolCalls: [command('touch denied.txt')] },
        { when: 'not on a Friday', toolCalls: [command('touch allowed.txt')] },
        { text: 'done' },
      ],
      { policy: ASK_ALL, approval: 'ask' },
    );
    const events = record(runtime);
    const submission = await runtime.submit('make files');
    if (submission.kind !== 'started') throw new Error('not started');
    const first = await nextEvent(runtime, update('approval_requested'));
    expect(first).toMatchObject({
      name: 'run_command',
      preview: 'touch denied.txt',
      args: { command: 'touch denied.txt' },
    });
    expect(runtime.pendingRequests()).toEqual([
      expect.objectContaining({ requestId: first.request_id, kind: 'approval', callId: first.call_id }),
    ]);
    expect(await runtime.answer(first.request_id, { kind: 'input', content: 'yes' })).toEqual({
      ok: false,
      error: `Request ${first.request_id} waits for an approval answer, not an input answer.`,
      code: 'bad_input',
    });
    const second = nextEvent(runtime, update('approval_requested'));
    expect(
      await runtime.answer(first.request_id, {
        kind: 'approval',
        decision: 'deny',
        reason: 'not on a Friday',
      }),
    ).toEqual({ ok: true });
    const allowed = await second;
    void runtime.answer(allowed.request_id, { kind: 'approval', decision: 'allow' });
    const { result } = await submission.done;
    expect(result.status).toBe('completed');
    expect(existsSync(path.join(runtime.workspace.root, 'denied.txt'))).toBe(false);
    expect(existsSync(path.join(runtime.workspace.root, 'allowed.txt'))).toBe(true);
    expect(events.find((event) => event.type === 'tool_error')).toMatchObject({
      call_id: first.call_id,
      display: 'denied: not on a Friday',
      error: expect.stringContaining('Their reason: not on a Friday'),
    });
  });

  it('a mode switched while a run goes on applies to its next call', async () => {
    const runtime = await openRuntime(
      [
        { toolCalls: [command('touch one.txt')] },
        { toolCalls: [command('touch two.txt')] },
        { text: 'done' },
      ],
      { policy: ASK_ALL, approval: 'ask' },
    );
    const events = record(runtime);
    const submission = await runtime.submit('make files');
    if (submission.kind !== 'started') throw new Error('not started');
    const asked = await nextEvent(runtime, update('approval_requested'));
    expect(runtime.approvalMode).toBe('ask');
    runtime.setApprovalMode('auto');
    void runtime.answer(asked.request_id, { kind: 'approval', decision: 'allow' });
    expect((await submission.done).result.status).toBe('completed');
    expect(
      events.filter((event) => event.type === 'agent_update' && event.update_type === 'approval_requested'),
    ).toHaveLength(1);
    expect(existsSync(path.join(runtime.workspace.root, 'two.txt'))).toBe(true);
  });
});
