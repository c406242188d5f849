/**
 * What a CLI command loads before it can answer: runs `node bin/taskweave.js <args>` (default
 * `--help`) once with bench/load-trace.mjs preloaded and lists the files it loaded — per
 * package from node_modules, and taskweave's own (dist/ files shown by their src/ names) — and,
 * for each heavy package, the shortest import chain from bin/taskweave.js that reaches it.
 *
 * Needs the build (`npm run build`). A report, not a benchmark: it has no target.
 *
 * Run: npx tsx bench/startup-modules.ts [-- <cli args>]   e.g. npx tsx bench/startup-modules.ts tasks list
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { renderTable } from '../src/cli/render/table.js';
import { CLI, describe, HEAVY_PACKAGES, packageOf, ROOT, trace } from './load-trace.js';

/** Shortest chains from the CLI entry: for each reached file, the file it was first reached from. */
function firstReachedFrom(children: Map<string, Set<string>>): Map<string, string> {
  const from = new Map<string, string>();
  const queue = [CLI];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head]!;
    for (const child of children.get(file) ?? []) {
      if (child === CLI || from.has(child)) continue;
      from.set(child, file);
      queue.push(child);
    }
  }
  return from;
}

function chainTo(file: string, from: Map<string, string>): string[] {
  const chain = [file];
  for (let step = from.get(file); step !== undefined; step = from.get(step)) chain.unshift(step);
  return chain;
}

if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('startup-modules: dist/cli/main.js is missing: run `npm run build` first');
  process.exit(1);
}
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
const cliArgs = args.length > 0 ? args : ['--help'];
const { files, children, exit } = trace(cliArgs);

/** Files and bytes loaded per package: a bundled package (ai) is one large file. */
const perPackage = new Map<string, { files: number; bytes: number }>();
const own: string[] = [];
for (const file of files) {
  const packageName = packageOf(file);
  if (packageName === undefined) {
    own.push(describe(file));
    continue;
  }
  const counts = perPackage.get(packageName) ?? { files: 0, bytes: 0 };
  perPackage.set(packageName, { files: counts.files + 1, bytes: counts.bytes + statSync(file).size });
}
const packageFiles = [...perPackage.values()].reduce((sum, counts) => sum + counts.files, 0);

console.log(
  `node bin/taskweave.js ${cliArgs.join(' ')} (exit ${exit}) loads ${files.size} files: ` +
    `${own.length} of taskweave's, ${packageFiles} from ${perPackage.size} packages in node_modules`,
);
process.stdout.write(
  renderTable({
    columns: [{ header: 'package' }, { header: 'files', align: 'right' }, { header: 'KB', align: 'right' }],
    rows: [...perPackage]
      .sort(([nameA, a], [nameB, b]) => b.bytes - a.bytes || nameA.localeCompare(nameB))
      .map(([name, counts]) => [name, String(counts.files), (counts.bytes / 1024).toFixed(0)]),
  }),
);
console.log(`taskweave files: ${own.sort().join(', ')}`);

const from = firstReachedFrom(children);
const reached = [...from.keys()].filter((file) => packageOf(file) !== undefined);
for (const heavy of HEAVY_PACKAGES) {
  const entry = reached
    .filter((file) => packageOf(file) === heavy)
    .map((file) => chainTo(file, from))
    .sort((a, b) => a.length - b.length)[0];
  if (entry === undefined) {
    console.log(`${heavy}: not loaded`);
    continue;
  }
  // The chain up to the first file of the package, each package shown once.
  const steps = entry.map(describe).filter((step, index, all) => step !== all[index - 1]);
  console.log(`${heavy}: ${steps.join(' → ')}`);
}
