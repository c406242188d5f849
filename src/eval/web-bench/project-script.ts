import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelScriptInput } from '../../runtime/configuration.js';
import { hasInitTask, type WebBenchProject } from './project.js';

/**
 * The script models the suite offers without an API key: `script:oracle` writes the project's
 * reference `src/` at the first task (every later check should then pass as well) and answers
 * the later tasks without changes; `script:lazy` changes nothing, ever.
 */
export const WEB_BENCH_SCRIPT_KINDS = ['oracle', 'lazy'] as const;

/** Files the oracle writes per reply: the agent runs at most 20 tool calls of one reply. */
export const ORACLE_WRITES_PER_TURN = 10;

/** One of WEB_BENCH_SCRIPT_KINDS. */
export type WebBenchScriptKind = (typeof WEB_BENCH_SCRIPT_KINDS)[number];

/** The script kind a model name means (`script:oracle`, `script:lazy`), if any. */
export function webBenchScriptKind(model: string): WebBenchScriptKind | undefined {
  const name = model.startsWith('script:') ? model.slice('script:'.length) : '';
  return WEB_BENCH_SCRIPT_KINDS.find((kind) => kind === name);
}

/**
 * Builds the script of a kind for a project: enough turns for every task's two attempts. The
 * oracle writes each text file of the reference src/ that differs from the start files (binary
 * files, images, are the same in src-init/; a project with an init task starts from nothing).
 */
export async function projectScript(
  project: WebBenchProject,
  kind: WebBenchScriptKind,
): Promise<ModelScriptInput> {
  const idle = Array.from({ length: project.tasks.length * 2 + 2 }, () => ({
    text:
      kind === 'oracle'
        ? 'The code in src/ already does what this task asks.'
        : 'The project already does what this task asks.',
  }));
  if (kind === 'lazy') return { turns: idle };
  const toolCalls: { name: string; args: { path: string; content: string } }[] = [];
  const reference = path.join(project.dir, 'src');
  for (const file of await filesUnder(reference)) {
    const content = await readFile(path.join(reference, file));
    const start = hasInitTask(project)
      ? undefined
      : await readFile(path.join(project.dir, 'src-init', file)).catch(() => undefined);
    if (content.includes(0) || start?.equals(content)) continue;
    toolCalls.push({ name: 'write_file', args: { path: `src/${file}`, content: content.toString('utf8') } });
  }
  const writes = [];
  for (let start = 0; start < toolCalls.length; start += ORACLE_WRITES_PER_TURN)
    writes.push({
      text: 'Writing the reference solution.',
      toolCalls: toolCalls.slice(start, start + ORACLE_WRITES_PER_TURN),
    });
  return { turns: [...writes, ...idle] };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
