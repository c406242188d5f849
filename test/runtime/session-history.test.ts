import { describe, expect, it } from 'vitest';
import { compactionMessage } from '../../src/agent/conversation/compaction-record.js';
import { sessionHistory } from '../../src/runtime/books/session-history.js';
import type { StoredMessage } from '../../src/store/sqlite/session-store.js';

const RECORD = { goals: ['g'], questions: [], filesChanged: [] };

function call(id: string) {
  return {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: {} }],
  };
}
function result(...ids: string[]) {
  return {
    role: 'tool',
    content: ids.map((id) => ({
      type: 'tool-result',
      toolCallId: id,
      toolName: 'read_file',
      output: { type: 'text', value: id },
    })),
  };
}

/** Stored messages in order, each `[taskId, message]`. */
function stored(list: [string | null, { role: string; content: unknown }][]): StoredMessage[] {
  return list.map(([taskId, message], index) => ({
    id: index + 1,
    sessionId: 's',
    runId: 'r',
    role: message.role as StoredMessage['role'],
    content: message.content,
    createdAt: index,
    taskId,
  }));
}

function shown(messages: StoredMessage[]): string[] {
  return sessionHistory(messages).map((entry) =>
    entry.kind === 'compaction' ? `compacted ${entry.replaced}` : `${entry.message.id}`,
  );
}

describe('sessionHistory', () => {
  it('reads each conversation on its own: copies in a task are matched within that task', () => {
    const summary = compactionMessage('summary', RECORD);
    const messages = stored([
      [null, { role: 'user', content: 'goal' }], // 1
      ['t', call('a')], // 2
      ['t', result('a')], // 3
      [null, call('x')], // 4
      ['t', call('b')], // 5
      ['t', result('b')], // 6
      ['t', call('c')], // 7
      [null, result('x')], // 8
      ['t', result('c')], // 9
      ['t', summary], // 10
      ['t', call('c')], // 11: copy of 7
      ['t', result('c')], // 12: copy of 9
      ['t', call('d')], // 13
    ]);
    expect(shown(messages)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', 'compacted 4', '13']);
  });

  it('matches a tool message whose copy got results added when the conversation was loaded', () => {
    const messages = stored([
      [null, { role: 'user', content: 'goal' }],
      [null, call('a')],
      [null, result('a')],
      [null, { role: 'assistant', content: [...call('b').content, ...call('c').content] }],
      [null, result('b')],
      [null, compactionMessage('summary', RECORD)],
      [null, { role: 'assistant', content: [...call('b').content, ...call('c').content] }],
      [null, result('b', 'c')],
    ]);
    expect(shown(messages)).toEqual(['1', '2', '3', '4', '5', 'compacted 3']);
  });

  it('shows everything when nothing was compacted', () => {
    const messages = stored([
      [null, { role: 'user', content: 'goal' }],
      [null, call('a')],
      [null, call('a')],
    ]);
    expect(shown(messages)).toEqual(['1', '2', '3']);
  });
});
