import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../../../src/eval/web-bench/project.js';
import { projectScript } from '../../../src/eval/web-bench/project-script.js';

/** A project of `files` source files (express's reference src/ has 43), one of them as it starts. */
async function projectOf(files: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'taskweave-web-bench-script-'));
  await mkdir(path.join(dir, 'src', 'routes'), { recursive: true });
  await mkdir(path.join(dir, 'src-init'));
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { test: 'x' } }));
  await writeFile(path.join(dir, 'tasks.jsonl'), '{"id":"task-1","description":"Do it."}\n');
  for (let index = 0; index < files; index += 1)
    await writeFile(path.join(dir, 'src', 'routes', `r${index}.js`), `module.exports = ${index}\n`);
  await writeFile(path.join(dir, 'src-init', 'index.html'), '<p>same</p>\n');
  await writeFile(path.join(dir, 'src', 'index.html'), '<p>same</p>\n');
  return dir;
}

describe("the web-bench oracle's script", () => {
  it('writes every reference file that differs from the start files, in replies the agent runs whole', async () => {
    const script = await projectScript(await loadProject(await projectOf(43)), 'oracle');
    const writing = script.turns.filter((turn) => (turn.toolCalls?.length ?? 0) > 0);
    const written = writing.flatMap((turn) =>
      turn.toolCalls!.map((call) => (call.args as { path: string }).path),
    );
    expect(written).toHaveLength(43);
    expect(written).not.toContain('src/index.html');
    expect(new Set(written).size).toBe(43);
    // The agent runs at most 20 tool calls of one reply (MAX_TOOL_CALLS_PER_REPLY) and drops the rest.
    for (const turn of writing) expect(turn.toolCalls!.length).toBeLessThanOrEqual(20);
  });
});
