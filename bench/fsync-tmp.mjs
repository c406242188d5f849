import Database from 'better-sqlite3';
import fs from 'node:fs';
for (const [label, cols] of [['1 idx', 0], ['6 idx', 5]]) for (const sync of ['NORMAL', 'FULL']) {
  const p = `/tmp/fs-x.db`; for (const s of ['', '-wal', '-shm']) fs.rmSync(p + s, { force: true });
  const db = new Database(p); db.pragma('journal_mode = WAL'); db.pragma(`synchronous = ${sync}`);
  db.exec('create table t (id text primary key, a text, b text, c text, d text, e text)');
  for (let i = 0; i < cols; i++) db.exec(`create index i${i} on t (${'abcde'[i]})`);
  const st = db.prepare('insert into t values (?, ?, ?, ?, ?, ?)');
  const r = () => Math.random().toString(36);
  for (let i = 0; i < 200; i++) st.run(r(), r(), r(), r(), r(), r());
  const n = 3000; const t0 = performance.now();
  for (let i = 0; i < n; i++) st.run(r(), r(), r(), r(), r(), r());
  const ms = performance.now() - t0; console.log(label, sync, Math.round(n / ms * 1000), '/s', (ms / n * 1000).toFixed(0), 'us');
  db.close();
}
for (const s of ['', '-wal', '-shm']) fs.rmSync('/tmp/fs-x.db' + s, { force: true });
