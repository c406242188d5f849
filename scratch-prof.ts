import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from './src/store/database.js';
import { TaskStore } from './src/store/task-store.js';
const N = 5000;
const results: number[][] = [];
for (let round = 0; round < 6; round++) {
  const folder = mkdtempSync(path.join(tmpdir(), 'scratch-'));
  const db = openDatabase({ path: path.join(folder, 'x.db'), synchronous: 'NORMAL' });
  const store = new TaskStore(db);
  let t = performance.now();
  for (let i = 0; i < N; i++) store.add({ title: `t${i}`, description: 'write src/index.ts with a main function' });
  const addUs = (performance.now() - t) * 1000 / N;
  t = performance.now();
  let cur = store.claimNext({ owner: 'b', leaseMs: 60000 });
  while (cur) cur = store.completeAndClaimNext({ id: cur.id, resultSummary: 'wrote it', owner: 'b', leaseMs: 60000 }).next;
  const hoUs = (performance.now() - t) * 1000 / N;
  if (round > 0) results.push([addUs, hoUs]);
  db.close(); rmSync(folder, { recursive: true, force: true });
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`median add ${med(results.map((r) => r[0]!)).toFixed(1)} µs, hand-off ${med(results.map((r) => r[1]!)).toFixed(1)} µs`);
