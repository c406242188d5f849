import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../src/tools/builtin/write-file.js';
import type { Tool } from '../../../src/tools/types.js';
import { mockModel } from '../../helpers/mock-model.js';
import { runWithHarness } from '../../helpers/run-harness.js';
import { safetyOf } from '../../helpers/safety.js';

describe('an unexpected error while a call is checked', () => {
  it('ends the run as failed, with the error as its reason, instead of leaving it running', async () => {
    // A tool whose preview throws although its contract says it never does: a bug in the gate's path.
    const broken: Tool = {
      ...writeFileTool,
      async preview() {
        throw new Error('the preview broke');
      },
    };
    const { result, events, store, sessionId, workspace } = await runWithHarness({
      model: mockModel([
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
        { text: 'never reached' },
      ]),
      tools: [broken],
      safety: safetyOf({ mode: 'ask', allow: [], deny: [] }, { kind: 'none' }),
      approver: async () => ({ kind: 'approval', decision: 'allow' }),
    });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/failed while checking a call of write_file: the preview broke/);
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'failed' });
    const [run] = await store.sessions.runs(sessionId);
    expect(run?.status).toBe('failed');
    expect(existsSync(path.join(workspace.root, 'a.txt'))).toBe(false);
  });
});
