import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/store/database.js';
import { SessionStore } from '../src/store/session-store.js';
import { TaskStore } from '../src/store/task-store.js';
const file = path.join(mkdtempSync(path.join(tmpdir(), 'p-')), 'x.db');
const db = openDatabase({ path: file, synchronous: 'NORMAL' });
db.sqlite.pragma('wal_autocheckpoint = 0');
const store = new TaskStore(db);
const sessions = new SessionStore(db);
const pageSize = Number(db.sqlite.pragma('page_size', { simple: true }));
for (let i = 0; i < 300; i++) { store.add({ title: 'w' }); store.complete(store.claimNext({ owner: 'o', leaseMs: 1e6 })!.id, 'ok'); }
function frames(work: () => void, n: number, label: string) {
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  for (let i = 0; i < n; i++) work();
  const size = statSync(`${file}-wal`).size;
  console.log(label, ((size - 32) / (pageSize + 24) / n).toFixed(2), 'pages per op');
}
const N = 200;
const ids: string[] = [];
frames(() => ids.push(store.add({ title: 'task' }).id), N, 'add');
frames(() => store.claimNext({ owner: 'o', leaseMs: 1e6 }) && store.complete(store.listActive('default')[0]!.id, 'ok'), N, 'claim+complete');
const s = sessions.createSession({ title: 's', goal: 'g', workspace: 'w', model: 'm' });
let seq = 0;
frames(() => sessions.appendEvent({ type: 'tool_complete', call_id: 'c', name: 'n', result: 'x'.repeat(300), duration_ms: 1, session_id: s.id, run_id: 'r', seq: ++seq, ts: 1 }), N, 'event');
