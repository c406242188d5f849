/**
 * Long runs: does a step cost the same at step 400 as at step 25, and does the context stay
 * bounded?
 *
 * One goal runs 400 steps in simple mode through the runtime, as `taskweave run` does: the script
 * model (zero latency) reads the workspace's files one after another (every fifth step writes
 * one), the CLI's persistence writes every message and event to a real SQLite file. The model's
 * context window is set to CONTEXT_WINDOW tokens in the workspace's config file, so that the
 * conversation is compacted (the script answers the `compact` calls) as a real model's would be.
 * The bench reports the wall time per step by tenth of the run, the input tokens of the tool
 * steps' model calls (the script model's estimate: prompt and tool definitions, 4 characters a
 * token), the compactions and the process's peak RSS, and ends with one line comparing the last
 * tenth to the first (target ≤ 1.5×: both measured in the same run, so the figure holds on a
 * loaded machine).
 *
 * Run: npx tsx bench/long-run.ts [steps]   (exit code 1 when the target is missed)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { renderTable } from '../src/cli/render/table.js';
import type { ModelScriptInput } from '../src/model/script-schema.js';
import { Runtime } from '../src/runtime/index.js';

const STEPS = Number(process.argv[2] ?? 400);
const TENTHS = 10;
const MAX_LAST_TO_FIRST = 1.5;
/** Files the script reads in turn: a real run reads many different files. */
const SOURCE_FILES = 40;
/** About the size of a small source file (3 KB): ten times the masking threshold. */
const SOURCE_LINES = 80;
/** Every this many steps the script writes a file instead of reading one. */
const WRITE_EVERY = 5;
/** A small window (tokens), so that 400 steps need several compactions. */
const CONTEXT_WINDOW = 16_000;
/** More summaries than the run can need: unused turns are left over. */
const COMPACT_TURNS = 100;

function sourceFile(index: number): string {
  const lines = Array.from(
    { length: SOURCE_LINES },
    (_, line) => `export const value${index}_${line} = compute(${line}, "module ${index}", ${line * index});`,
  );
  return `${lines.join('\n')}\n`;
}

function script(steps: number): ModelScriptInput {
  const turns: ModelScriptInput['turns'] = [];
  for (let step = 1; step <= steps; step++) {
    const call: { name: string; args: Record<string, string> } =
      step % WRITE_EVERY === 0
        ? { name: 'write_file', args: { path: `out/note-${step}.txt`, content: `Step ${step} noted.\n` } }
        : { name: 'read_file', args: { path: `src/module-${step % SOURCE_FILES}.ts` } };
    turns.push({ phase: 'act', text: `Step ${step}: going on.`, toolCalls: [call] });
  }
  turns.push({ phase: 'act', text: 'All files are read and the notes written.' });
  for (let index = 0; index < COMPACT_TURNS; index++) {
    turns.push({
      phase: 'compact',
      text: 'Done: read the modules in turn, noted progress in out/.\nFindings: each module exports constants.\nLeft to do: the remaining modules.\nOpen questions: none.',
    });
  }
  return { description: 'bench/long-run', latencyMs: 0, turns };
}

const root = await mkdtemp(path.join(tmpdir(), 'taskweave-bench-long-run-'));
await mkdir(path.join(root, 'src'));
for (let index = 0; index < SOURCE_FILES; index++) {
  await writeFile(path.join(root, 'src', `module-${index}.ts`), sourceFile(index));
}
await mkdir(path.join(root, '.taskweave'));
await writeFile(
  path.join(root, '.taskweave', 'config.json'),
  JSON.stringify({ context: { script: { window: CONTEXT_WINDOW } } }),
);
const scriptPath = path.join(root, 'long-run.json');
await writeFile(scriptPath, JSON.stringify(script(STEPS)));

const runtime = await Runtime.open({
  cwd: root,
  model: `script:${scriptPath}`,
  maxSteps: STEPS + 10,
  plan: 'never',
  onFailure: 'abort',
  protocol: 'native',
  policy: { input: 'nobody', plan: 'approve', failure: 'abort' },
  // Every call runs unasked, unsandboxed: the loop's own cost is measured, not bubblewrap's.
  approval: 'auto',
  sandbox: 'off',
  env: {},
});

const stepStarts: number[] = [];
const inputTokens: number[] = [];
const compactions: { step: number; saved: number }[] = [];
runtime.bus.subscribe((event) => {
  if (event.type !== 'agent_update') return;
  if (event.update_type === 'agent_turn_start') stepStarts.push(performance.now());
  if (event.update_type === 'model_usage' && event.phase === 'act') inputTokens.push(event.input_tokens);
  if (event.update_type === 'context_compacted')
    compactions.push({ step: event.step, saved: event.tokens_saved });
});

const started = performance.now();
const submission = await runtime.submit('Read every module and note the progress.');
if (submission.kind !== 'started') throw new Error('The goal was queued instead of started.');
const { result } = await submission.done;
const ended = performance.now();
await runtime.close();
await rm(root, { recursive: true, force: true });
if (result.status !== 'completed') throw new Error(`The run ended ${result.status}: ${result.reason}`);

// A step lasts from its agent_turn_start to the next one (the last, to the run's end).
const stepMs = stepStarts.map((start, index) => (stepStarts[index + 1] ?? ended) - start);
const tenthSize = Math.floor(stepMs.length / TENTHS);
const tenths = Array.from({ length: TENTHS }, (_, tenth) => {
  const slice = stepMs.slice(tenth * tenthSize, tenth === TENTHS - 1 ? undefined : (tenth + 1) * tenthSize);
  return { from: tenth * tenthSize + 1, to: tenth * tenthSize + slice.length, slice };
});

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

console.log(`Long run: ${stepMs.length} steps, script model (zero latency), persistence in a SQLite file`);
process.stdout.write(
  renderTable({
    columns: [
      { header: 'steps', align: 'left' },
      { header: 'mean ms/step', align: 'right' },
      { header: 'median ms/step', align: 'right' },
      { header: 'max ms/step', align: 'right' },
    ],
    rows: tenths.map(({ from, to, slice }) => [
      `${from}–${to}`,
      mean(slice).toFixed(1),
      median(slice).toFixed(1),
      Math.max(...slice).toFixed(1),
    ]),
  }),
);
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(
  `input tokens per tool-step call: first ${inputTokens[0]}, median ${median(inputTokens)}, last ${inputTokens.at(-1)} ` +
    `(${inputTokens.length} calls, ${inputTokens.reduce((sum, value) => sum + value, 0)} in all)`,
);
console.log(
  compactions.length === 0
    ? 'compactions: none'
    : `compactions: ${compactions.length}, at steps ${compactions.map((entry) => entry.step).join(', ')}; ` +
        `~${Math.round(mean(compactions.map((entry) => entry.saved)))} tokens saved per call by each`,
);
console.log(`whole run ${((ended - started) / 1000).toFixed(1)} s, peak RSS ${peakRssMb.toFixed(0)} MB`);
const first = mean(tenths[0]!.slice);
const last = mean(tenths.at(-1)!.slice);
const ratio = last / first;
const pass = ratio <= MAX_LAST_TO_FIRST;
console.log(
  `long-run: last tenth ${last.toFixed(1)} ms/step vs first tenth ${first.toFixed(1)} ms/step = ${ratio.toFixed(2)}× ` +
    `(target ≤ ${MAX_LAST_TO_FIRST}×), last call ${inputTokens.at(-1)} input tokens — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
