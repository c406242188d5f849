import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImportRules, formatViolations, type ImportViolation, ruledRooms } from './import-rules.js';

const REAL_SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** A source tree that keeps every rule, using each kind of import and SQL where it is allowed. */
const CLEAN_TREE: Record<string, string> = {
  'cli/main.ts': [
    "import { openRuntime } from '../runtime/runtime.js';",
    "import type { ServerEvent } from '../events/registry.js';",
    "import { layers } from '../plan/graph.js';",
    "export { startServer } from '../server/app.js';",
    '// The old code ran SELECT * FROM tasks here; now the runtime asks the store.',
    "export const hint = 'Select a task from the list, then UPDATE it with care.';",
    'export async function main(event: ServerEvent) {',
    "  const { renderTable } = await import('./table.js');",
    '  return renderTable(layers(), openRuntime(), event);',
    '}',
  ].join('\n'),
  'cli/table.ts': 'export function renderTable(...parts: unknown[]) { return String(parts.length); }',
  'server/app.ts': [
    "import { openRuntime } from '../runtime/runtime.js';",
    'export function startServer() { return openRuntime(); }',
  ].join('\n'),
  'runtime/runtime.ts': [
    "import { runAgent } from '../agent/run-agent.js';",
    "import { openStore } from '../store/database.js';",
    "import { sandboxed } from '../tools/sandbox/index.js';",
    'export function openRuntime() { return runAgent(openStore(), sandboxed); }',
  ].join('\n'),
  // A room's face: other layers import its index.ts, the room's own files import each other.
  'tools/sandbox/index.ts': "export { sandboxed } from './bwrap.js';",
  'tools/sandbox/bwrap.ts': "export const sandboxed = 'bwrap';",
  'agent/run-agent.ts': [
    "import type { Store } from '../store/database.js';",
    "import { readFileTool } from '../tools/read-file.js';",
    "import { layers } from '../plan/graph.js';",
    'export function runAgent(store: Store) { return [store, readFileTool, layers()]; }',
  ].join('\n'),
  'tools/read-file.ts': [
    "import { errorMessage } from '../util/error-message.js';",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's source holds a template literal
    'export const readFileTool = { description: `Reads a file. Delete from the cache with ${errorMessage}.` };',
  ].join('\n'),
  'plan/graph.ts': "export function layers(): string[] { return ['Create the table of tasks']; }",
  'events/registry.ts': "export type ServerEvent = { type: 'run_started' };",
  'util/error-message.ts': "export const errorMessage = 'failed';",
  'export/render.ts':
    "import type { ServerEvent } from '../events/registry.js';\nexport type Exported = ServerEvent;",
  'store/database.ts': [
    "import Database from 'better-sqlite3';",
    "import { sql } from 'drizzle-orm';",
    "import type { SQLiteTable } from 'drizzle-orm/sqlite-core';",
    'export type Store = { table?: SQLiteTable };',
    'export function openStore(): Store {',
    "  const db = new Database(':memory:');",
    "  db.exec('CREATE TABLE tasks (id text)');",
    "  db.pragma('journal_mode = WAL');",
    '  return { table: undefined, ...{ sql, db } };',
    '}',
  ].join('\n'),
};

/** Each planted violation, written over the clean tree, with the violation the checker must report. */
const PLANTED_TREE: Record<string, string> = {
  // A cycle that is type-only on one side: plan/a → (type) plan/b → plan/c → plan/a.
  'plan/a.ts': "import type { B } from './b.js';\nexport const a = 1;\nexport type A = B;",
  'plan/b.ts': "import { c } from './c.js';\nexport type B = typeof c;",
  'plan/c.ts': "import { a } from './a.js';\nexport const c = a;",
  // agent re-exports a type from cli.
  'agent/summary.ts': "export type { ServerEvent as Shown } from '../cli/render.js';",
  'cli/render.ts': "export type { ServerEvent } from '../events/registry.js';",
  // cli reaches into the store (a type import is still an import).
  'cli/tasks-command.ts': "import type { Store } from '../store/database.js';\nexport type Tasks = Store;",
  // tools loads agent code lazily.
  'tools/plan-tool.ts': "export async function plan() { return import('../agent/run-agent.js'); }",
  // The loop reaches into complex mode; rendering asks the interactive session.
  'agent/loop/driver.ts':
    "import { plan } from '../orchestrator/orchestrator.js';\nexport const drive = plan;",
  'agent/orchestrator/orchestrator.ts': "export const plan = 'plan';",
  'cli/render/render.ts': "import { ask } from '../interactive/session.js';\nexport const render = ask;",
  'cli/interactive/session.ts': "export const ask = 'ask';",
  // drizzle outside the store.
  'agent/query.ts': "import { eq } from 'drizzle-orm';\nexport const equal = eq;",
  // raw SQL in the runtime, in a template literal.
  'runtime/sessions.ts': [
    'export function sessionQuery(id: string) {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's source holds a template literal
    '  return `SELECT id, title FROM sessions WHERE id = ${id}`;',
    '}',
  ].join('\n'),
  // The runtime reaches past the sandbox room's face to one of its files.
  'runtime/probe.ts':
    "import { sandboxed } from '../tools/sandbox/bwrap.js';\nexport const probe = sandboxed;",
  // A front end drives git itself instead of asking the runtime.
  'server/diff.ts': "import { diff } from '../work/diff.js';\nexport const shown = diff;",
  'work/diff.ts': "export const diff = 'diff';",
  // eval reads the store instead of running the agent through the runtime.
  'eval/score.ts': "import type { Store } from '../store/database.js';\nexport type Scored = Store;",
  // export/ reads the session itself instead of being given its events.
  'export/session.ts':
    "import { openRuntime } from '../runtime/runtime.js';\nexport const session = openRuntime;",
};

let folders: string[] = [];

function writeTree(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-import-rules-'));
  folders.push(folder);
  const root = path.join(folder, 'src');
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, `${text}\n`);
  }
  return root;
}

afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

function summary(violation: ImportViolation): { rule: string; files: string[] } {
  return { rule: violation.rule, files: violation.files };
}

describe('import rules', () => {
  it('passes a tree that keeps every rule', () => {
    const violations = checkImportRules(writeTree(CLEAN_TREE));
    expect(violations, formatViolations(violations)).toEqual([]);
  });

  it('reports each planted violation with the files it involves', () => {
    const violations = checkImportRules(writeTree({ ...CLEAN_TREE, ...PLANTED_TREE }));
    const report = formatViolations(violations);

    expect(violations.map(summary), report).toEqual(
      expect.arrayContaining([
        { rule: 'cycle', files: ['src/plan/a.ts', 'src/plan/b.ts', 'src/plan/c.ts'] },
        { rule: 'layer', files: ['src/agent/summary.ts', 'src/cli/render.ts'] },
        { rule: 'layer', files: ['src/cli/tasks-command.ts', 'src/store/database.ts'] },
        { rule: 'layer', files: ['src/tools/plan-tool.ts', 'src/agent/run-agent.ts'] },
        { rule: 'room', files: ['src/agent/loop/driver.ts', 'src/agent/orchestrator/orchestrator.ts'] },
        { rule: 'room', files: ['src/cli/render/render.ts', 'src/cli/interactive/session.ts'] },
        { rule: 'database-import', files: ['src/agent/query.ts'] },
        { rule: 'raw-sql', files: ['src/runtime/sessions.ts'] },
        { rule: 'layer', files: ['src/export/session.ts', 'src/runtime/runtime.ts'] },
        { rule: 'deep', files: ['src/runtime/probe.ts', 'src/tools/sandbox/bwrap.ts'] },
        { rule: 'layer', files: ['src/server/diff.ts', 'src/work/diff.ts'] },
        { rule: 'layer', files: ['src/eval/score.ts', 'src/store/database.ts'] },
      ]),
    );
    expect(violations, report).toHaveLength(12);

    // The messages name the whole cycle, which import is type-only, and why a rule exists.
    expect(report).toContain(
      'import cycle: src/plan/a.ts → src/plan/b.ts (type import) → src/plan/c.ts → src/plan/a.ts',
    );
    expect(report).toContain(
      'src/agent/summary.ts → src/cli/render.ts (type import): agent must not import cli',
    );
    expect(report).toContain(
      'src/cli/tasks-command.ts → src/store/database.ts (type import): cli must not import store',
    );
    expect(report).toContain(
      'src/tools/plan-tool.ts → src/agent/run-agent.ts (import): tools must not import agent',
    );
    expect(report).toContain(
      'src/agent/loop/driver.ts → src/agent/orchestrator/orchestrator.ts (import): agent/loop/ must not import agent/orchestrator/',
    );
    expect(report).toContain(
      'src/cli/render/render.ts → src/cli/interactive/session.ts (import): cli/render/ must not import cli/interactive/',
    );
    expect(report).toContain(
      'src/export/session.ts → src/runtime/runtime.ts (import): export must not import runtime',
    );
    expect(report).toContain(
      'src/runtime/probe.ts → src/tools/sandbox/bwrap.ts: imports a file inside tools/sandbox/',
    );
    expect(report).toContain(
      "src/server/diff.ts → src/work/diff.ts (import): server must not import work (front ends import only the runtime's face",
    );
    expect(report).toContain(
      'src/eval/score.ts → src/store/database.ts (type import): eval must not import store',
    );
    expect(report).toContain("src/agent/query.ts imports 'drizzle-orm'");
    expect(report).toContain("src/runtime/sessions.ts:2 holds raw SQL ('SELECT id, title FROM')");
  });

  it("keeps the store's face apart from its implementations: the top loads them only lazily, neither imports the other", () => {
    const store: Record<string, string> = {
      'store/ports.ts': 'export interface Store { location: string }',
      'store/open-store.ts': [
        "import type { Store } from './ports.js';",
        'export async function openStore(url: string): Promise<Store> {',
        "  const opened = url.startsWith('postgres') ? await import('./postgres/pg.js') : await import('./sqlite/lite.js');",
        '  return opened.open();',
        '}',
      ].join('\n'),
      'store/sqlite/lite.ts':
        "import type { Store } from '../ports.js';\nexport function open(): Store { return { location: 'file' }; }",
      'store/postgres/pg.ts':
        "import type { Store } from '../ports.js';\nexport function open(): Store { return { location: 'url' }; }",
    };
    const clean = checkImportRules(writeTree({ ...CLEAN_TREE, ...store }));
    expect(clean, formatViolations(clean)).toEqual([]);
    const planted = checkImportRules(
      writeTree({
        ...CLEAN_TREE,
        ...store,
        // The face importing an implementation statically, and PostgreSQL borrowing SQLite's types.
        'store/rows.ts': "import { open } from './sqlite/lite.js';\nexport const opener = open;",
        'store/postgres/pg.ts':
          "import type { Store } from '../sqlite/lite.js';\nexport type Opened = Store;",
      }),
    );
    const report = formatViolations(planted);
    expect(planted.map(summary), report).toEqual([
      { rule: 'room', files: ['src/store/postgres/pg.ts', 'src/store/sqlite/lite.ts'] },
      { rule: 'room', files: ['src/store/rows.ts', 'src/store/sqlite/lite.ts'] },
    ]);
    expect(report).toContain('store/ (top) must not import store/sqlite/');
    expect(report).toContain('store/postgres/ must not import store/sqlite/');
  });

  it('reports a relative import that names no file rather than skipping it', () => {
    const violations = checkImportRules(
      writeTree({ ...CLEAN_TREE, 'agent/broken.ts': "export * from './gone.js';" }),
    );
    expect(violations.map(summary)).toEqual([{ rule: 'unresolved', files: ['src/agent/broken.ts'] }]);
  });

  it("keeps agent/state/ the agent's ground floor: a type import up to another room is reported", () => {
    const violations = checkImportRules(
      writeTree({
        ...CLEAN_TREE,
        'agent/state/run-state.ts':
          "import type { LoopName } from '../loop/loop-name.js';\nexport type RunState = { loop: LoopName };",
        'agent/loop/loop-name.ts': "export type LoopName = 'react' | 'roa';",
        'agent/loop/driver.ts':
          "import type { RunState } from '../state/run-state.js';\nexport type Driven = RunState;",
      }),
    );
    expect(violations.map(summary)).toEqual([
      { rule: 'room', files: ['src/agent/state/run-state.ts', 'src/agent/loop/loop-name.ts'] },
    ]);
    expect(formatViolations(violations)).toContain(
      'src/agent/state/run-state.ts → src/agent/loop/loop-name.ts (type import): agent/state/ must not import agent/loop/',
    );
  });

  it('finds a README.md that says what it may import at the top of every layer of src/', () => {
    const layers = readdirSync(REAL_SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(layers.length).toBeGreaterThan(10);
    const missing = layers
      .map((entry) => path.join(REAL_SRC, entry.name, 'README.md'))
      .filter((readme) => !existsSync(readme) || !/may import/i.test(readFileSync(readme, 'utf8')));
    expect(missing.map((readme) => path.relative(REAL_SRC, readme))).toEqual([]);
  });

  it('finds every ruled room in src/, opening with a README.md that says what it may import', () => {
    for (const { layer, room } of ruledRooms()) {
      const readme = path.join(REAL_SRC, layer, room, 'README.md');
      expect(existsSync(readme), `${layer}/${room}/README.md`).toBe(true);
      expect(readFileSync(readme, 'utf8'), `${layer}/${room}/README.md`).toMatch(/may import/i);
    }
  });

  it('holds for the real src/', () => {
    // Compared as text, so that a failure lists one violation per line.
    expect(formatViolations(checkImportRules(REAL_SRC)), 'import rules broken in src/').toBe('');
  });
});
