import { mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalResultsSchema } from '../../../src/eval/results-file.js';
import { runCli } from '../../helpers/cli.js';
import { type LlmServer, startLlmServer } from '../../helpers/llm-server.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/web-bench');

describe('taskweave eval --suite web-bench against a local OpenAI-compatible server', () => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('the model’s replies write the fixture’s reference src/: both tasks pass, the tokens are counted', {
    timeout: 300_000,
  }, async () => {
    const reference = await readFile(path.join(FIXTURE, 'projects/counter/src/index.html'), 'utf8');
    server.reply(
      // task-1: the page (the reference already does task-2 too).
      { toolCalls: [{ name: 'write_file', args: { path: 'src/index.html', content: reference } }] },
      { text: 'The page shows the Counter heading.', usage: { inputTokens: 1200, outputTokens: 40 } },
      // task-2: nothing left to do.
      { text: 'The button and the count are already there.', usage: { inputTokens: 1500, outputTokens: 30 } },
    );
    const out = await mkdtemp(path.join('/var/tmp', 'taskweave-web-bench-llm-'));
    const run = await runCli(
      [
        'eval',
        '--suite',
        'web-bench',
        '--path',
        FIXTURE,
        '--project',
        'counter',
        '--model',
        'openai-compatible:local-coder',
        '--base-url',
        server.baseUrl,
        '--out',
        out,
      ],
      {
        cwd: out,
        env: {
          // The fixture's specs find taskweave's own playwright-core; installs go to a cache of the test's own.
          NODE_PATH: path.resolve(
            path.dirname(createRequire(import.meta.url).resolve('playwright-core')),
            '..',
          ),
          XDG_CACHE_HOME: path.join(out, 'cache'),
        },
        timeoutMs: 280_000,
      },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const saved = evalResultsSchema.parse(JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8')));
    const [result] = saved.runs;
    expect(result).toMatchObject({
      model: 'openai-compatible:local-coder',
      passed: true,
      modelCalls: 3,
      inputTokens: 10 + 1200 + 1500,
      outputTokens: 5 + 40 + 30,
    });
    expect(result!.webBench).toMatchObject({ tasks: 2, passedFirst: 2, errorsFirst: 0 });
    expect(server.pendingReplies).toBe(0);
    expect(server.requests.map((request) => (request.body as { model?: string }).model)).toEqual([
      'local-coder',
      'local-coder',
      'local-coder',
    ]);
    // The second task reached the model as a message of the same session, after the first.
    const last = JSON.stringify(server.requests[2]?.body);
    expect(last).toContain('Show a heading (h1) that reads Counter.');
    expect(last).toContain('each click on the button adds 1 to the count');
    expect(run.stdout).toMatch(/openai-compatible:local-coder/);
  });
});
