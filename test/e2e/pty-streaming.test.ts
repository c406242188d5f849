import { describe, expect, it } from 'vitest';
import { startLlmServer } from '../helpers/llm-server.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const PARAGRAPH =
  'The build failed because src/index.ts assigned a string to a number, so I changed the ' +
  '**declared type** of `total`, ran the compiler again and then ran the whole test suite, which ' +
  'passes now on Node 20 and on Node 22, with the same twelve tests as before and no new warnings ' +
  'at all, which closes the issue.';

describe('the model’s text on an 80×24 terminal', () => {
  it('a long paragraph shows as it streams, rendered and wrapped between words, each row once', async () => {
    const server = await startLlmServer();
    try {
      // One word every 40 ms: the paragraph takes about two seconds to arrive.
      server.reply({ text: `${PARAGRAPH}\n\nDone.`, chunkDelayMs: 40 });
      const workspace = await tempWorkspaceRoot('taskweave-streaming-');
      const run = PtyRun.start(
        [
          'run',
          '--model',
          'openai-compatible:test',
          '--base-url',
          server.baseUrl,
          '--cwd',
          workspace,
          'fix it',
        ],
        { env: { NO_COLOR: '', FORCE_COLOR: '1', OPENAI_COMPATIBLE_API_KEY: 'sk-test' } },
      );
      await run.waitFor('The build failed because src/index.ts assigned a string to a number, so I');
      // The first row is on the screen while the end of the paragraph has not arrived yet.
      expect(run.text()).not.toContain('closes the issue');
      expect(await run.exited, run.text()).toBe(0);
      const lines = run.lines();
      const first = lines.indexOf(
        'The build failed because src/index.ts assigned a string to a number, so I',
      );
      expect(lines.slice(first, first + 6)).toEqual([
        'The build failed because src/index.ts assigned a string to a number, so I',
        'changed the declared type of total, ran the compiler again and then ran the',
        'whole test suite, which passes now on Node 20 and on Node 22, with the same',
        'twelve tests as before and no new warnings at all, which closes the issue.',
        '',
        'Done.',
      ]);
      expect(run.text().split('The build failed')).toHaveLength(2);
      expect(run.text()).not.toContain('**');
    } finally {
      await server.close();
    }
  });
});
