import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '/work/main/src/store/database.ts';
import { TaskStore } from '/work/main/src/store/task-store.ts';
const sync = (process.argv[2] ?? 'NORMAL') as 'NORMAL' | 'FULL';
const db = openDatabase({ path: process.argv[3] === 'mem' ? ':memory:' : path.join(mkdtempSync(path.join(tmpdir(), 'p-')), 'x.db'), synchronous: sync });
const store = new TaskStore(db);
for (const q of [
  "SELECT max(sequence) FROM tasks WHERE queue = 'default'",
  "UPDATE tasks SET status='pending' WHERE queue='default' AND status='in_progress' AND lease_expires_at <= 5",
  "SELECT id FROM tasks WHERE queue='default' AND status='in_progress' LIMIT 1",
  "SELECT id FROM tasks WHERE queue='default' AND status='pending' AND NOT EXISTS (SELECT d.id FROM task_dependencies td JOIN tasks d ON d.id = td.depends_on_id WHERE td.task_id = tasks.id AND d.status <> 'completed') ORDER BY sequence LIMIT 1",
]) console.log(q.slice(0, 50), JSON.stringify(db.sqlite.prepare('EXPLAIN QUERY PLAN ' + q).all().map((r: any) => r.detail)));
const t = { add: 0, claim: 0, complete: 0 };
const N = 2000;
for (let i = 0; i < N; i++) {
  let a = performance.now();
  store.add({ title: 't' + i });
  let b = performance.now(); t.add += b - a;
  const task = store.claimNext({ queue: 'default', owner: 'o', leaseMs: 60000 })!;
  a = performance.now(); t.claim += a - b;
  store.complete(task.id, 'ok', { owner: 'o' });
  b = performance.now(); t.complete += b - a;
}
console.log(sync, Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round((v / N) * 1000) + 'us'])));
