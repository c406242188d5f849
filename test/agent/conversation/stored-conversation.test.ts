import { describe, expect, it } from 'vitest';
import { loadConversation, UNKNOWN_RESULT } from '../../../src/agent/conversation/stored-conversation.js';
import { Journal } from '../../../src/agent/state/journal.js';
import { EventBus } from '../../../src/events/bus.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const call = (id: string, path: string) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'write_file',
  input: { path, content: 'x' },
});

async function setup() {
  const store = openSqliteStore({ path: ':memory:' });
  const { sessions, images } = store;
  const sessionId = (await sessions.createSession({ title: 't', goal: 'g', workspace: '/w', model: 'm' })).id;
  const journal = new Journal({ sessionId, store, bus: new EventBus() });
  return { sessions, images, sessionId, journal };
}

describe('loadConversation', () => {
  it('gives calls that were never answered their logged result, or marks them unknown, and stores the repair', async () => {
    const { sessions, images, sessionId, journal } = await setup();
    await sessions.appendMessage(sessionId, 'run-1', 'user', 'write two files');
    await sessions.appendMessage(sessionId, 'run-1', 'assistant', [call('c1', 'a.txt'), call('c2', 'b.txt')]);
    // The process logged c1's result, then died before c2 ended and before saving the results.
    await journal.emit('run-1', {
      type: 'tool_complete',
      call_id: 'c1',
      name: 'write_file',
      result: 'Created a.txt',
      duration_ms: 3,
    });

    const messages = await loadConversation(sessions, sessionId, null, images);
    expect(messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'write_file',
          output: { type: 'text', value: 'Created a.txt' },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'write_file',
          output: { type: 'error-text', value: UNKNOWN_RESULT },
        },
      ],
    });
    // Stored: loading again changes nothing and adds nothing.
    expect(await sessions.messages(sessionId)).toHaveLength(3);
    expect(await loadConversation(sessions, sessionId, null, images)).toEqual(messages);
  });

  it('repairs a gap in the middle (an older crash) without storing it there', async () => {
    const { sessions, images, sessionId } = await setup();
    await sessions.appendMessage(sessionId, 'run-1', 'user', 'go');
    await sessions.appendMessage(sessionId, 'run-1', 'assistant', [call('c1', 'a.txt')]);
    await sessions.appendMessage(sessionId, 'run-2', 'user', 'continue');
    const messages = await loadConversation(sessions, sessionId, null, images);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(await sessions.messages(sessionId)).toHaveLength(3);
  });
});
