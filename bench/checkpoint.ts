/**
 * What a step pays for its change record (its checkpoint), on a repository of 10,000 files with
 * an ignored node_modules of 300 MB, beside the same steps without one, measured in the same run.
 *
 * 500 steps, in a fixed mix: two of three are file-tool steps (a write of one file, recorded
 * exactly around the call), one of three a command that changes one to three files (recorded by
 * two snapshots through taskweave's throw-away index). A step's cost is the time the recorder
 * adds around the work (its wall time minus the work's own, measured inside it); the work alone
 * is shown as the floor. Disk: what .git/objects and the database grew by, against the bytes the
 * steps actually wrote into changed files.
 *
 * Between steps the model writes its next reply (--reply-ms, 250 by default, as bench/parallel
 * has it; not counted): the recorder brings its index up to date and writes the next snapshot's
 * tree then, behind the step. With --reply-ms 0 the steps run back to back and a command waits
 * for that work of the one before.
 *
 * Targets: ≤ 30 ms per command step and ≤ 2 ms per file-tool step (median; p99 shown), disk ≤ 2×
 * the bytes changed.
 *
 * Run: npx tsx bench/checkpoint.ts [--steps N] [--files N] [--ignored-mb N] [--reply-ms N]   (exit 1 when a target is missed)
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderTable } from '../src/cli/render/table.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { ChangeRecorder } from '../src/work/change-recorder.js';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const STEPS = argument('--steps', 500);
const FILES = argument('--files', 10_000);
const IGNORED_MB = argument('--ignored-mb', 300);
const REPLY_MS = argument('--reply-ms', 250);
const TARGET_COMMAND_MS = 30;
const TARGET_FILE_MS = 2;
const TARGET_DISK_RATIO = 2;

/** A deterministic pseudo-random sequence, so every run does the same steps. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function git(cwd: string, ...args: string[]) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const inner = path.join(folder, entry.name);
    if (entry.isDirectory()) total += await folderBytes(inner);
    else total += (await stat(inner)).size;
  }
  return total;
}

/** The database file and its WAL, in bytes. */
function databaseBytes(root: string): number {
  return ['taskweave.db', 'taskweave.db-wal']
    .map((name) => {
      try {
        return statSync(path.join(root, '.taskweave', name)).size;
      } catch {
        return 0;
      }
    })
    .reduce((a, b) => a + b, 0);
}

function sourceText(rand: () => number, lines: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line += 1) {
    out.push(`export const value${line} = ${Math.floor(rand() * 1e9)}; // line ${line} of a source file`);
  }
  return `${out.join('\n')}\n`;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main() {
  const root = mkdtempSync(path.join(tmpdir(), 'taskweave-bench-checkpoint-'));
  try {
    const rand = random(42);
    process.stderr.write(
      `Making a repository of ${FILES} files and an ignored node_modules of ${IGNORED_MB} MB…\n`,
    );
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.email', 'bench@example.com');
    git(root, 'config', 'user.name', 'bench');
    writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
    const files: string[] = [];
    for (let index = 0; index < FILES; index += 1) {
      const folder = path.join('src', `m${index % 100}`);
      mkdirSync(path.join(root, folder), { recursive: true });
      const file = path.join(folder, `f${index}.ts`);
      writeFileSync(path.join(root, file), sourceText(rand, 20 + Math.floor(rand() * 60)));
      files.push(file);
    }
    const blob = Buffer.alloc(1024 * 1024, 'x');
    for (let mb = 0; mb < IGNORED_MB; mb += 1) {
      const folder = path.join(root, 'node_modules', `pkg${mb % 50}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, `chunk${mb}.js`), blob);
    }
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'bench: the starting tree');
    mkdirSync(path.join(root, '.taskweave'), { recursive: true });
    writeFileSync(path.join(root, '.taskweave', '.gitignore'), '*\n');

    const store = openSqliteStore({ path: path.join(root, '.taskweave', 'taskweave.db'), create: true });
    const session = await store.sessions.createSession({
      title: 'b',
      goal: 'b',
      workspace: root,
      model: 'script:b',
    });
    const objectsBefore = await folderBytes(path.join(root, '.git', 'objects'));
    const databaseBefore = databaseBytes(root);
    const errors: string[] = [];
    const recorder = new ChangeRecorder({
      root,
      sessionId: session.id,
      runId: 'run_bench',
      store: store.changes,
      onError: (message) => errors.push(message),
    });

    const cost = { file: [] as number[], command: [] as number[] };
    const work = { file: [] as number[], command: [] as number[] };
    let bytesChanged = 0;
    process.stderr.write(`Running ${STEPS} steps…\n`);
    for (let step = 1; step <= STEPS; step += 1) {
      const kind = step % 3 === 0 ? 'command' : 'file';
      const chosen = Array.from({ length: kind === 'file' ? 1 : 1 + Math.floor(rand() * 3) }, () => {
        return files[Math.floor(rand() * files.length)] as string;
      });
      const contents = chosen.map(() => sourceText(rand, 20 + Math.floor(rand() * 60)));
      let inner = 0;
      const started = performance.now();
      await recorder.around(
        {
          callId: `call_${step}`,
          tool: kind === 'file' ? 'write_file' : 'run_command',
          changes: kind === 'file' ? 'files' : 'command',
          args: kind === 'file' ? { path: chosen[0] } : { command: 'bench' },
          step,
        },
        async () => {
          const at = performance.now();
          if (kind === 'file') writeFileSync(path.join(root, chosen[0] as string), contents[0] as string);
          else {
            // A real child process changes the files, as run_command's would.
            const script = chosen.map((file, index) => `printf '%s' "$C${index}" > '${file}'`).join(' && ');
            execSync(script, {
              cwd: root,
              env: {
                ...process.env,
                ...Object.fromEntries(contents.map((content, index) => [`C${index}`, content])),
              },
            });
          }
          inner = performance.now() - at;
        },
      );
      const total = performance.now() - started;
      if (REPLY_MS > 0) await new Promise((resolve) => setTimeout(resolve, REPLY_MS));
      cost[kind].push(total - inner);
      work[kind].push(inner);
      const unique = new Map(chosen.map((file, index) => [file, contents[index] as string]));
      for (const content of unique.values()) bytesChanged += Buffer.byteLength(content);
    }
    await recorder.close();
    const objectsAfter = await folderBytes(path.join(root, '.git', 'objects'));
    const changes = (await store.changes.list(session.id)).length;
    await store.close();
    const dbBytes = databaseBytes(root) - databaseBefore;
    const disk = objectsAfter - objectsBefore + dbBytes;

    const ms = (value: number) => value.toFixed(2);
    const row = (kind: 'file' | 'command', target: number) => [
      kind === 'file' ? 'file-tool step' : 'command step',
      String(cost[kind].length),
      ms(percentile(work[kind], 50)),
      ms(percentile(cost[kind], 50)),
      ms(percentile(cost[kind], 99)),
      `≤ ${target}`,
      percentile(cost[kind], 50) <= target ? 'PASS' : 'MISS',
    ];
    process.stdout.write(
      renderTable({
        columns: [
          { header: 'step' },
          { header: 'n', align: 'right' },
          { header: 'work alone ms (p50)', align: 'right' },
          { header: 'record ms p50', align: 'right' },
          { header: 'record ms p99', align: 'right' },
          { header: 'target ms' },
          { header: '' },
        ],
        rows: [row('file', TARGET_FILE_MS), row('command', TARGET_COMMAND_MS)],
      }),
    );
    const ratio = disk / bytesChanged;
    process.stdout.write(
      `\nrepository: ${FILES} files, node_modules ${IGNORED_MB} MB (ignored); ${STEPS} steps, ${changes} change records; model replies ${REPLY_MS} ms between steps\n` +
        `disk: .git/objects +${(objectsAfter - objectsBefore) / 1024 / 1024 < 0.01 ? 0 : ((objectsAfter - objectsBefore) / 1024 / 1024).toFixed(2)} MB, database ${(dbBytes / 1024 / 1024).toFixed(2)} MB; ` +
        `bytes changed ${(bytesChanged / 1024 / 1024).toFixed(2)} MB; ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_DISK_RATIO})\n`,
    );
    if (errors.length > 0) process.stdout.write(`recording errors: ${errors.join('; ')}\n`);
    const pass =
      errors.length === 0 &&
      percentile(cost.file, 50) <= TARGET_FILE_MS &&
      percentile(cost.command, 50) <= TARGET_COMMAND_MS &&
      ratio <= TARGET_DISK_RATIO;
    process.stdout.write(
      `${pass ? 'PASS' : 'MISS'}: file-tool step +${ms(percentile(cost.file, 50))} ms, command step +${ms(percentile(cost.command, 50))} ms (p50), disk ${ratio.toFixed(2)}× the bytes changed, replies ${REPLY_MS} ms\n`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
