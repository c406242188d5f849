/**
 * Language-server diagnostics on a generated TypeScript project of PROJECT_FILES files (a chain
 * of modules, each calling the one before): the first edit on a cold server (start and project
 * load), then edit-to-diagnostics on the warm server (p50, p99) for edits that break a caller in
 * another file and edits that fix it, the server's memory (its process tree's RSS), and the
 * edit_file step's wall time with and without diagnostics. The server runs in bubblewrap when it
 * is there, as in a run. Also the first edit of a run whose model takes THINK_MS per call (start,
 * call, read, call, edit) on a fresh server: warmed only by the read, or also with the first model
 * request (`warmWorkspace`). Timings depend on the machine and its load (printed): no target here.
 *
 * Run: npx tsx bench/lsp.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { renderTable } from '../src/cli/render/table.js';
import { editFileTool } from '../src/tools/builtin/edit-file.js';
import { readFileTool } from '../src/tools/builtin/read-file.js';
import { FileTracker } from '../src/tools/file-tracker.js';
import { LanguageServers } from '../src/tools/lsp/index.js';
import type { CommandSandbox } from '../src/tools/sandbox/index.js';
import type { ToolContext } from '../src/tools/types.js';
import { Workspace } from '../src/tools/workspace/workspace.js';

const PROJECT_FILES = 200;
const WARM_EDITS = 40;
const STEP_EDITS = 20;
const EDITED = 100;
/** A model call's time in the first-edit rows (a fast hosted model). */
const THINK_MS = 3000;

const sandbox: CommandSandbox = existsSync('/usr/bin/bwrap')
  ? { kind: 'bwrap', bwrap: '/usr/bin/bwrap', mode: 'workspace-write', network: false }
  : { kind: 'none' };

function moduleText(index: number, extraParameter = false): string {
  const parameters = extraParameter ? 'value: number, scale: number' : 'value: number';
  const body = index === 0 ? 'value + 1' : `f${index - 1}(value) * 2`;
  const imports = index === 0 ? '' : `import { f${index - 1} } from './m${index - 1}.js';\n\n`;
  const filler = Array.from({ length: 15 }, (_, line) => `  const v${line}: number = value * ${line};`).join(
    '\n',
  );
  return `${imports}/** Module ${index}. */\nexport function f${index}(${parameters}): number {\n${filler}\n  return ${body} + v0;\n}\n`;
}

async function project(): Promise<string> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'taskweave-bench-lsp-')));
  await mkdir(path.join(root, 'src'));
  await writeFile(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true },
      include: ['src'],
    }),
  );
  for (let index = 0; index < PROJECT_FILES; index++)
    await writeFile(path.join(root, 'src', `m${index}.ts`), moduleText(index));
  return root;
}

function context(workspace: Workspace, servers: LanguageServers | undefined): ToolContext {
  return {
    workspace,
    signal: new AbortController().signal,
    control: { requestInput: async () => ({ status: 'unavailable' }) },
    model: { complete: async () => '' },
    files: new FileTracker(),
    progress: () => {},
    callId: 'bench',
    step: 1,
    sandbox,
    ...(servers === undefined ? {} : { languageServers: servers }),
  };
}

/** One edit of m{EDITED}.ts through the tools: toggles the extra parameter (breaking, then fixing, its caller). */
async function edit(ctx: ToolContext, broken: boolean): Promise<{ ms: number; problems: number }> {
  const file = `src/m${EDITED}.ts`;
  await readFileTool.run({ path: file }, ctx);
  const [from, to] = broken
    ? ['value: number, scale: number)', 'value: number)']
    : ['value: number)', 'value: number, scale: number)'];
  const started = performance.now();
  const result = await editFileTool.run(
    { path: file, edits: [{ find: `f${EDITED}(${from}`, replace: `f${EDITED}(${to}` }] },
    ctx,
  );
  if (result.isError) throw new Error(result.output);
  return { ms: performance.now() - started, problems: result.diagnostics?.length ?? 0 };
}

/**
 * The first edit of a run on a fresh server: a model call, a read, a model call, the edit (each
 * call THINK_MS); with `warmAtStart` the servers are warmed as the first model request goes out.
 */
async function firstEditOfRun(
  workspace: Workspace,
  broken: boolean,
  warmAtStart: boolean,
): Promise<{ ms: number; problems: number }> {
  const servers = new LanguageServers({ waitMs: 120_000 }, process.env);
  try {
    const ctx = context(workspace, servers);
    if (warmAtStart) servers.warmWorkspace({ workspaceRoot: workspace.root, sandbox });
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    await readFileTool.run({ path: `src/m${EDITED}.ts` }, ctx);
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    return await edit(ctx, broken);
  } finally {
    await servers.close();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** RSS of a process and all its descendants, in MB (Linux /proc). */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // The process ended while it was read.
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop() as number;
    total += rss.get(current) ?? 0;
    stack.push(...(children.get(current) ?? []));
  }
  return total / 1024;
}

async function main(): Promise<void> {
  const root = await project();
  const workspace = await Workspace.open(root);
  const servers = new LanguageServers({ waitMs: 120_000 }, process.env);
  try {
    const withServers = context(workspace, servers);
    let broken = false;
    const cold = await edit(withServers, broken);
    broken = !broken;
    const warm: number[] = [];
    for (let index = 0; index < WARM_EDITS; index++) {
      const { ms, problems } = await edit(withServers, broken);
      // Breaking the signature must report the caller in m{EDITED+1}.ts; fixing it, nothing.
      if (problems !== (broken ? 0 : 1)) throw new Error(`edit ${index}: ${problems} problems reported`);
      warm.push(ms);
      broken = !broken;
    }
    const [server] = servers.list();
    const memory = server?.pid === undefined ? Number.NaN : treeRssMb(server.pid);
    const stepWith: number[] = [];
    const stepWithout: number[] = [];
    const without = context(workspace, undefined);
    for (let index = 0; index < STEP_EDITS; index++) {
      stepWith.push((await edit(withServers, broken)).ms);
      broken = !broken;
      stepWithout.push((await edit(without, broken)).ms);
      broken = !broken;
    }
    const readWarmed = await firstEditOfRun(workspace, broken, false);
    broken = !broken;
    const startWarmed = await firstEditOfRun(workspace, broken, true);
    broken = !broken;
    const ms = (value: number) => `${Math.round(value)} ms`;
    console.log(
      `Language-server diagnostics on a ${PROJECT_FILES}-file TypeScript project (typescript-language-server, ${sandbox.kind === 'bwrap' ? 'in bubblewrap' : 'unconfined'}); load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}, ${WARM_EDITS} warm edits`,
    );
    console.log(
      renderTable({
        columns: [
          { header: 'measure', align: 'left' },
          { header: 'value', align: 'right' },
        ],
        rows: [
          ['first edit, cold server (start + project load + diagnostics)', ms(cold.ms)],
          [`first edit of a run (${THINK_MS / 1000} s model calls), warmed by the read`, ms(readWarmed.ms)],
          [
            `first edit of a run (${THINK_MS / 1000} s model calls), warmed at the first request`,
            ms(startWarmed.ms),
          ],
          ['edit to diagnostics, warm: p50', ms(percentile(warm, 50))],
          ['edit to diagnostics, warm: p99', ms(percentile(warm, 99))],
          ['server memory (RSS of its process tree)', `${Math.round(memory)} MB`],
          ['edit_file step with diagnostics: p50', ms(percentile(stepWith, 50))],
          ['edit_file step without diagnostics: p50', ms(percentile(stepWithout, 50))],
        ],
      }),
    );
  } finally {
    await servers.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
