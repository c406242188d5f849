import { readFileSync } from 'node:fs';
import type { Heading, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString as textOf } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { renderSessionExport } from '../../src/export/export-formats.js';
import { sessionExportSchema } from '../../src/export/export-schema.js';
import { SHOWN_OUTPUT_LINES } from '../../src/export/export-text.js';
import { exportContentPolicy } from '../../src/export/html-export.js';
import { markdownToHtml } from '../../src/export/html-markdown.js';
import { buildSessionExport } from '../../src/export/session-export.js';

const WEBAPP: ServerEvent[] = readFileSync(
  new URL('../events/fixtures/webapp-run.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

const SESSION = {
  id: 'ses_test1234',
  title: 'Create webapp',
  goal: 'Create webapp',
  workspace: '/tmp/webapp',
  model: 'script:examples/webapp.json',
  status: 'idle',
  createdAt: 1795434963000,
  updatedAt: 1795434969000,
};

/** A run whose tool output, model text and question carry hostile content, and whose usage has a price. */
function hostileEvents(): ServerEvent[] {
  let seq = 0;
  const base = { session_id: 'ses_hostile1', run_id: 'run_h1' };
  const event = (payload: Record<string, unknown>): ServerEvent =>
    ({ ...base, seq: ++seq, ts: 1795434963000 + seq, ...payload }) as ServerEvent;
  const longOutput = Array.from({ length: 200 }, (_, index) => `line ${index + 1}`).join('\n');
  return [
    event({
      type: 'agent_update',
      update_type: 'agent_start',
      max_steps: 10,
      mode: 'simple',
      loop: 'react',
      model: 'openai:gpt-test',
      goal: 'Show <b>me</b> the </div><script>alert(1)</script>',
    }),
    event({ type: 'agent_update', update_type: 'agent_turn_start', step: 1 }),
    event({
      type: 'agent_update',
      update_type: 'agent_text_delta',
      step: 1,
      content:
        'Look: ![pixel](http://127.0.0.1:9/pixel.png) <img src=x onerror=alert(2)> [click](javascript:alert(3)) and [docs](https://example.com/a"b).',
    }),
    event({
      type: 'agent_update',
      update_type: 'model_usage',
      step: 1,
      phase: 'act',
      input_tokens: 1000,
      output_tokens: 50,
      cost: 0.0125,
    }),
    event({
      type: 'tool_start',
      call_id: 'c1',
      name: 'run_command',
      args: { command: 'cat evil.html' },
      step: 1,
    }),
    event({
      type: 'tool_complete',
      call_id: 'c1',
      name: 'run_command',
      result:
        'Exit code: 0\n--- stdout ---\n<script>document.title="pwned"</script>\n```\n# not a heading\n![x](http://127.0.0.1:9/x.png)\n',
      display: 'exit 0',
      duration_ms: 5,
    }),
    event({ type: 'tool_start', call_id: 'c2', name: 'read_file', args: { path: 'big.txt' }, step: 1 }),
    event({ type: 'tool_complete', call_id: 'c2', name: 'read_file', result: longOutput, duration_ms: 3 }),
    event({ type: 'agent_update', update_type: 'agent_turn_start', step: 2 }),
    event({
      type: 'agent_update',
      update_type: 'agent_request_input',
      step: 2,
      request_id: 'q1',
      question: 'Keep <iframe src="http://127.0.0.1:9/"></iframe>?',
    }),
    event({
      type: 'agent_update',
      update_type: 'agent_user_input',
      request_id: 'q1',
      content: 'no <script>x</script>',
    }),
    event({
      type: 'agent_update',
      update_type: 'model_usage',
      step: 2,
      phase: 'act',
      input_tokens: 500,
      output_tokens: 20,
      cost: 0.005,
    }),
    event({
      type: 'agent_update',
      update_type: 'agent_completion',
      steps: 2,
      status: 'completed',
      final_answer: 'Done. <script>alert(4)</script>',
      input_tokens: 1500,
      output_tokens: 70,
    }),
    event({ type: 'response_complete', status: 'completed', final_answer: 'Done.' }),
  ];
}

const HOSTILE_SESSION = { ...SESSION, id: 'ses_hostile1', title: 'x</title><script>alert(5)</script>' };

function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** The types of every node of a tree, deep. */
function kinds(node: Root | Root['children'][number]): string[] {
  return [node.type, ...('children' in node ? node.children.flatMap((child) => kinds(child)) : [])];
}

function headings(tree: Root): { depth: number; text: string }[] {
  return tree.children
    .filter((node): node is Heading => node.type === 'heading')
    .map((node) => ({ depth: node.depth, text: textOf(node) }));
}

describe('a session export', () => {
  it('folds the events as the web UI does: runs, the plan with each task state, steps with their calls, tokens', () => {
    const document = buildSessionExport({ session: SESSION, events: WEBAPP, exportedAt: 1 });
    expect(sessionExportSchema.parse(document)).toEqual(document);
    expect(document.runs).toHaveLength(1);
    expect(document.runs[0]).toMatchObject({ status: 'completed', goal: 'Create webapp' });
    expect(document.plans[0]?.tasks.map((task) => [task.id, task.state])).toEqual([
      ['project', 'completed'],
      ['index', 'completed'],
      ['html', 'completed'],
    ]);
    const steps = document.timeline.filter((entry) => entry.kind === 'step');
    const calls = steps.flatMap((step) => step.tool_calls.map((call) => call.name));
    expect(calls).toContain('plan_actions');
    expect(calls.filter((name) => name === 'write_file').length).toBeGreaterThanOrEqual(3);
    const stepTokens = steps.reduce((sum, step) => sum + step.usage.input_tokens, 0);
    expect(stepTokens).toBe(document.usage.input_tokens);
    expect(document.usage.input_tokens).toBeGreaterThan(0);
    // No usage event of this log has a price: no cost anywhere, never a made-up one.
    expect(JSON.stringify(document)).not.toContain('"cost"');
    expect(document.timeline.at(-1)).toMatchObject({ kind: 'completion', status: 'completed' });
  });

  it("the header status is the one sessions list shows (the last run's), and a run that made a plan reads as planned", () => {
    for (const format of ['md', 'html'] as const) {
      const text = renderSessionExport({ session: SESSION, events: WEBAPP, format });
      expect(text).not.toMatch(/Status:?(\*\*|<\/dt><dd>)? ?idle/);
      expect(text).toMatch(/Status:?(\*\*|<\/dt>\s*<dd>)? ?completed/);
      expect(text).toContain('· planned ·');
      expect(text).not.toContain('· simple ·');
    }
  });

  it('sums the cost the usage events carry per step, run and session', () => {
    const document = buildSessionExport({ session: HOSTILE_SESSION, events: hostileEvents() });
    expect(document.usage).toEqual({ input_tokens: 1500, output_tokens: 70, cost: 0.0175 });
    expect(document.runs[0]?.usage.cost).toBeCloseTo(0.0175);
    const steps = document.timeline.filter((entry) => entry.kind === 'step');
    expect(steps.map((step) => step.usage.cost)).toEqual([0.0125, 0.005]);
    const markdown = renderSessionExport({ session: HOSTILE_SESSION, events: hostileEvents(), format: 'md' });
    expect(markdown).toContain('1,500 in / 70 out tokens · cost 0.0175');
    expect(markdown).toContain('1,000 in / 50 out tokens · cost 0.0125');
  });

  it('markdown: the sections as headings, outputs fenced so that nothing in them becomes markdown, long ones cut', () => {
    const markdown = renderSessionExport({ session: HOSTILE_SESSION, events: hostileEvents(), format: 'md' });
    const tree = parseMarkdown(markdown);
    expect(headings(tree).map((heading) => `${heading.depth} ${heading.text}`)).toEqual([
      '1 x</title><script>alert(5)</script>',
      '2 Goal',
      '2 Run 1: Completed',
      '3 Step 1',
      '4 ✓ run_command cat evil.html — exit 0',
      '4 ✓ read_file big.txt — 3 ms',
      '3 Step 2',
      '3 Question',
      '3 Final answer',
      '2 Tokens',
    ]);
    // The command's output, with its own ``` and "# not a heading", is one code block.
    const blocks = tree.children.filter((node) => node.type === 'code').map((node) => node.value);
    expect(blocks).toContainEqual(
      expect.stringContaining('```\n# not a heading\n![x](http://127.0.0.1:9/x.png)'),
    );
    // The model's raw HTML and images read as text; its other markdown (a link) stays.
    expect(kinds(tree)).not.toContain('html');
    expect(kinds(tree)).not.toContain('image');
    expect(kinds(tree)).toContain('link');
    expect(textOf(tree)).toContain(
      '[image: pixel] (http://127.0.0.1:9/pixel.png) <img src=x onerror=alert(2)>',
    );
    // The long output: its first lines, then a note of what was cut.
    const long = blocks.find((value) => value.startsWith('line 1\n'));
    expect(long?.split('\n')).toHaveLength(SHOWN_OUTPUT_LINES);
    expect(markdown).toContain(`… ${200 - SHOWN_OUTPUT_LINES} more lines (of 200) cut`);
    expect(markdown).toContain('**Answer:** no \\<script\\>x\\</script\\>');
  });

  it("markdown: a command's output without the model's framing, the exit code kept only when not 0", () => {
    const results = {
      c1: 'Exit code: 0\nDuration: 92ms\n--- stdout ---\nbuilt 3 files\n--- stderr ---\n(empty)',
      c9: 'Exit code: 2\nDuration: 1.4s\n--- stdout ---\n(empty)\n--- stderr ---\nnpm ERR! missing script: lint',
    };
    const events = hostileEvents()
      .flatMap((event): ServerEvent[] => {
        if (event.type === 'tool_complete' && event.call_id === 'c1')
          return [
            { ...event, result: results.c1, display: 'exit 0 · 92ms' },
            { ...event, call_id: 'c9', result: results.c9, display: 'exit 2 · 1.4s' },
          ];
        if (event.type === 'tool_start' && event.call_id === 'c1')
          return [event, { ...event, call_id: 'c9', args: { command: 'npm run lint' } }];
        return [event];
      })
      .map((event, index) => ({ ...event, seq: index + 1 }));
    const markdown = renderSessionExport({ session: HOSTILE_SESSION, events, format: 'md' });
    expect(markdown).not.toContain('Duration:');
    expect(markdown).not.toContain('--- stdout ---');
    expect(markdown).not.toContain('--- stderr ---');
    expect(markdown).not.toContain('(empty)');
    expect(markdown).not.toContain('Exit code: 0');
    expect(markdown).toContain('— exit 0 · 92ms\n\nOutput:\n\n```\nbuilt 3 files\n```');
    expect(markdown).toContain('Exit code: 2\n\nStderr:\n\n```\nnpm ERR! missing script: lint\n```');
  });

  it('html: hostile text stays text, images are not loaded, unsafe links are not links, and a CSP forbids scripts', () => {
    const html = renderSessionExport({ session: HOSTILE_SESSION, events: hostileEvents(), format: 'html' });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img|<iframe/i);
    expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
    expect(html).not.toContain('javascript:alert(3)"');
    expect(html).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
    expect(html).toContain('[image: pixel] (http://127.0.0.1:9/pixel.png)');
    expect(html).toContain('<a href="https://example.com/a&quot;b" rel="noopener noreferrer">docs</a>');
    expect(html).toContain('click (javascript:alert(3))');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${exportContentPolicy().replaceAll("'", '&#39;')}">`,
    );
    expect(exportContentPolicy()).toContain("script-src 'none'");
    expect(exportContentPolicy()).toContain("default-src 'none'");
    // No outside resource: nothing names a URL to load.
    expect(html).not.toMatch(/\s(src|srcset|href)="(?!https:\/\/example\.com)/);
    // The long output sits in a <details>, cut with a note.
    expect(html).toMatch(/<details><summary>output \(200 lines\)<\/summary><pre>line 1\n/);
    expect(html).toContain(`${200 - SHOWN_OUTPUT_LINES} more lines (of 200) cut`);
  });

  it('markdown to html: raw html, images and scripts come out as text', () => {
    expect(markdownToHtml('a <script>x</script> b')).toBe(
      '<p>a <code class="raw-html">&lt;script&gt;</code>x<code class="raw-html">&lt;/script&gt;</code> b</p>',
    );
    expect(markdownToHtml('<div onclick="x()">hi</div>')).toBe(
      '<code class="raw-html">&lt;div onclick=&quot;x()&quot;&gt;hi&lt;/div&gt;</code>',
    );
    expect(markdownToHtml('# Title\n\n- [x] done\n\n```js\nlet a = "<b>";\n```')).toBe(
      '<h4>Title</h4><ul><li>☑ done</li></ul><pre class="code" data-lang="js"><code>let a = &quot;&lt;b&gt;&quot;;</code></pre>',
    );
    expect(markdownToHtml('[x](data:text/html,hi)')).toBe('<p>x (data:text/html,hi)</p>');
  });

  it('md and html carry no escape sequence from an output (colours, terminal codes); json keeps the output exact', () => {
    const output = 'ok \u001b[31mred\u001b[0m \u001b]52;c;aGk=\u0007done\r\n';
    const events = hostileEvents().map((event) =>
      event.type === 'tool_complete' && event.call_id === 'c1' ? { ...event, result: output } : event,
    );
    for (const format of ['md', 'html'] as const) {
      const text = renderSessionExport({ session: HOSTILE_SESSION, events, format });
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      expect(text).toContain('ok red done');
    }
    const json = JSON.parse(renderSessionExport({ session: HOSTILE_SESSION, events, format: 'json' }));
    expect(JSON.stringify(json)).toContain(JSON.stringify(output).slice(1, -1));
  });

  it('json: the document whole (outputs uncut), valid against its schema', () => {
    const json = JSON.parse(
      renderSessionExport({ session: HOSTILE_SESSION, events: hostileEvents(), format: 'json' }),
    );
    const document = sessionExportSchema.parse(json);
    const read = document.timeline
      .flatMap((entry) => (entry.kind === 'step' ? entry.tool_calls : []))
      .find((call) => call.name === 'read_file');
    expect(read?.output?.split('\n')).toHaveLength(200);
    expect(document.timeline.find((entry) => entry.kind === 'question')).toMatchObject({
      question: 'Keep <iframe src="http://127.0.0.1:9/"></iframe>?',
      answer: 'no <script>x</script>',
    });
  });
});
