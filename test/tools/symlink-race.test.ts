import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../src/tools/builtin/read-file.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';
import { useToolTestBed } from '../helpers/tool-context.js';

/** The attack: `sub` flips between a real folder and a symbolic link to a folder outside. */
const RACER = `
const fs = require('node:fs');
const move = (from, to) => { try { fs.renameSync(from, to); } catch {} };
const dwell = () => { const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 200000)); while (process.hrtime.bigint() < until); };
process.stdout.write('ready\\n');
for (let round = 0; ; round++) {
  // Each state is held a moment (up to 0.2 ms) so that a call can also fall wholly inside one.
  move('sub.dir', 'sub'); dwell(); move('sub', 'sub.dir');
  move('sub.link', 'sub'); dwell(); move('sub', 'sub.link');
  // write_file's own mkdir can leave a fresh folder at sub, which would stop the flipping.
  if (round % 50 === 0) {
    try { if (fs.existsSync('sub.dir') && !fs.lstatSync('sub').isSymbolicLink()) fs.rmSync('sub', { recursive: true, force: true }); } catch {}
  }
}`;

const WRITES = 400;
const READS = 100;

describe('symlink races (a folder swapped for a link between the check and the use)', () => {
  const bed = useToolTestBed();
  let racer: ChildProcess | undefined;
  afterEach(() => {
    racer?.kill('SIGKILL');
    racer = undefined;
  });

  /** Waits for the racer to be gone: a rename after the count would skew it. */
  async function stopRacer(): Promise<void> {
    const child = racer;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function startRacer(): Promise<void> {
    const { root, outside } = bed();
    await mkdir(path.join(root, 'sub.dir'));
    await writeFile(path.join(root, 'sub.dir', 'secret.txt'), 'inside\n');
    await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE SECRET\n');
    await symlink(outside, path.join(root, 'sub.link'));
    const child = spawn(process.execPath, ['-e', RACER], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    racer = child;
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  }

  it(`lands none of ${WRITES} writes (nor a temp file) outside, and reads no outside content in ${READS} reads or more`, async () => {
    await startRacer();
    const { ctx, outside } = bed();
    let writesDone = 0;
    for (let index = 0; index < WRITES; index++) {
      const result = await writeFileTool.run(
        { path: `sub/file-${index}.txt`, content: `written ${index}\n` },
        ctx,
      );
      if (!result.isError) writesDone++;
    }
    let outsideReads = 0;
    let refusedReads = 0;
    // On a loaded machine the racer may get no CPU during the first reads: reading goes on (up to
    // 30 s) until the race has shown itself, so that the check below proves something.
    const deadline = Date.now() + 30_000;
    for (let index = 0; index < READS || (refusedReads === 0 && Date.now() < deadline); index++) {
      const result = await readFileTool.run({ path: 'sub/secret.txt' }, ctx);
      if (result.output.includes('OUTSIDE SECRET')) outsideReads++;
      if (
        result.output.includes('changed while it was being used') ||
        result.output.includes('leads outside')
      )
        refusedReads++;
    }
    await stopRacer();
    const landedOutside = (await readdir(outside)).filter((name) => name !== 'secret.txt');
    expect({ landedOutside: landedOutside.length, outsideReads }).toEqual({
      landedOutside: 0,
      outsideReads: 0,
    });
    // The race really ran (reads were refused for it), and writes still succeed between the flips.
    expect(refusedReads).toBeGreaterThan(0);
    expect(writesDone).toBeGreaterThan(0);
    // A refused write removes its temp file. The racer was killed with the folder at either name.
    const folder = existsSync(path.join(bed().root, 'sub.dir')) ? 'sub.dir' : 'sub';
    const leftInside = (await readdir(path.join(bed().root, folder))).filter((name) =>
      name.endsWith('.taskweave-tmp'),
    );
    expect(leftInside).toEqual([]);
  }, 120_000);
});
