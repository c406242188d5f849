import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** What the background command prints: 50 MB of `x`, in 50 bursts, without a single newline. */
const PRINTED = 50 * 1_000_000;
const PRINT = `for i in $(seq 50); do head -c 1000000 /dev/zero | tr '\\0' x; sleep 0.04; done; touch printed`;
/** Waits (in the foreground) until it printed it all and its end was taken in. */
const WAIT = 'while [ ! -e printed ]; do sleep 0.2; done; sleep 1.5';

/** The peak resident memory of a process so far (VmHWM), in bytes; 0 once it is gone. */
function peakRss(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB$/m);
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function fileSize(file: string): Promise<number> {
  return (await stat(file).catch(() => ({ size: 0 }))).size;
}

describe('background output is bounded whatever its line structure (issue 39, item 11)', () => {
  it('a background command printing 50 MB without a newline: small events, a small database, bounded memory, and read_background_output says what it dropped', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-bg-bounds-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-bg-bounds-script-'), {
      turns: [
        { toolCalls: [{ name: 'run_command', args: { command: PRINT, background: true } }] },
        // Time for the command to print it all while its output events go out.
        { toolCalls: [{ name: 'run_command', args: { command: WAIT } }] },
        { toolCalls: [{ name: 'read_background_output', args: { id: 'bg1' } }] },
        { text: 'Read it.' },
      ],
    });
    let peak = 0;
    let sampler: NodeJS.Timeout | undefined;
    const result = await runCli(
      [
        'run',
        '--approval',
        'auto',
        '--model',
        `script:${script}`,
        '--cwd',
        workspace,
        '--json',
        'print a lot',
      ],
      {
        timeoutMs: 120_000,
        onSpawn: (child) => {
          sampler = setInterval(() => {
            peak = Math.max(peak, peakRss(child.pid ?? -1));
          }, 50);
        },
      },
    );
    clearInterval(sampler);
    expect(result.code, result.stderr).toBe(0);

    // Every event is small: the longest line of the stream, and each output event's lines.
    const lines = result.stdout.split('\n');
    const longest = Math.max(...lines.map((line) => line.length));
    expect(longest).toBeLessThan(20_000);
    const events = parseJsonLines(result.stdout);
    const outputs = events.flatMap((event) => (event.type === 'background_output' ? [event] : []));
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      expect(output.lines.join('\n').length).toBeLessThan(5 * 600);
      // The one long line is cut and says how much more it had.
      expect(output.lines.at(-1)).toMatch(/^x{500}… \[\d+ more characters\]$/);
    }
    const ended = events.find((event) => event.type === 'background_ended');
    expect(ended).toMatchObject({ command_id: 'bg1', state: 'exited', exit_code: 0 });
    expect(ended && 'lines' in ended ? ended.lines : []).toEqual([
      `${'x'.repeat(500)}… [${PRINTED - 500} more characters]`,
    ]);

    // The model reads the head and the tail, and how much was dropped between them.
    const read = events.find(
      (event) => event.type === 'tool_complete' && event.name === 'read_background_output',
    );
    const text = read && 'result' in read ? String(read.result) : '';
    expect(text.length).toBeLessThan(13_000);
    const dropped = text.match(/… \[(\d+) characters, 0 lines elided\] …/);
    expect(dropped, text.slice(0, 300)).not.toBeNull();
    expect(Number(dropped?.[1])).toBeGreaterThan(PRINTED - 12_000);

    // The store stays small, and so does the process's memory.
    const db = path.join(workspace, '.taskweave', 'taskweave.db');
    const stored = (await fileSize(db)) + (await fileSize(`${db}-wal`));
    expect(stored).toBeLessThan(8 * 1024 * 1024);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(300 * 1024 * 1024);
    console.log(
      `peak RSS ${Math.round(peak / 1024 / 1024)} MB, database ${Math.round(stored / 1024)} KB, ${outputs.length} output events, longest line ${longest}`,
    );
  }, 150_000);
});
