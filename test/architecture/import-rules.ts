/**
 * The layer rules of design.md ("Layers") checked on the import graph of a source folder:
 * no import cycles (type imports included); nothing below the front ends imports `cli`,
 * `server`, `acp` or `eval`; the front ends import only the runtime's face, `events`, `plan`,
 * `export`, `eval` and `util`; `eval` goes through the runtime too (the sandbox of `tools` aside);
 * `tools` imports neither `agent` nor `store`; `tools` and `model` never import `config`; no
 * layer imports a file inside another layer's rooms (its face is its top-level files and its
 * rooms' `index.ts`); database packages and raw SQL only in `store`.
 *
 * A file's layer is the first folder under the root (`src/agent/loop/x.ts` → `agent`), its room
 * the second (`loop`); a file directly in the root has no layer and only the cycle and SQL rules
 * apply to it.
 */
import path from 'node:path';
import {
  buildImportGraph,
  cyclicComponents,
  type ImportGraph,
  type SourceFileFacts,
  shortestCycle,
} from './import-graph.js';

/** One broken rule, with the files involved (relative to the root's parent, e.g. `src/agent/x.ts`). */
export interface ImportViolation {
  rule: 'cycle' | 'layer' | 'room' | 'deep' | 'database-import' | 'raw-sql' | 'unresolved';
  files: string[];
  message: string;
}

/** The front ends: they parse input, call the runtime and render its events. */
const FRONT_ENDS = ['cli', 'server', 'acp'];
/** What nothing below the front ends imports: the front ends, and `eval` (the eval command's engine). */
const TOP_LAYERS = [...FRONT_ENDS, 'eval'];
/**
 * All a front end may import of the other layers (`cli` starts the server for `serve` and the
 * ACP agent for `acp`).
 */
const FRONT_END_MAY_IMPORT = ['runtime', 'events', 'plan', 'export', 'eval', 'util', 'server', 'acp'];
const STORE = 'store';

interface LayerRule {
  /** The importing layers the rule applies to. */
  applies: (layer: string) => boolean;
  /** The layers it may not import: a list, or a test of the imported layer. */
  forbidden: readonly string[] | ((target: string) => boolean);
  why: string;
}

function forbids(rule: LayerRule, target: string): boolean {
  return typeof rule.forbidden === 'function' ? rule.forbidden(target) : rule.forbidden.includes(target);
}

const LAYER_RULES: readonly LayerRule[] = [
  {
    applies: (layer) => !TOP_LAYERS.includes(layer),
    forbidden: TOP_LAYERS,
    why: 'nothing below the front ends imports cli, server, acp or eval',
  },
  {
    applies: (layer) => FRONT_ENDS.includes(layer),
    forbidden: (target) => !FRONT_END_MAY_IMPORT.includes(target),
    why: "front ends import only the runtime's face, events, plan, export, eval and util",
  },
  {
    applies: (layer) => layer === 'eval',
    forbidden: ['agent', STORE, 'work', 'model', 'config', 'prompts'],
    why: 'eval runs the agent through the runtime (the sandbox of tools aside)',
  },
  {
    applies: (layer) => layer === 'tools',
    forbidden: ['agent', STORE],
    why: 'tools never import agent or store',
  },
  {
    applies: (layer) => layer === 'tools' || layer === 'model',
    forbidden: ['config'],
    why: 'tools and model are given their settings; reading and checking the configuration is config/, above them',
  },
  {
    applies: (layer) => layer === 'config',
    forbidden: ['agent', 'runtime', STORE, 'work'],
    why: "config/ reads and checks the user's settings with the vocabulary of model and tools; the runtime and the agent use it",
  },
  {
    applies: (layer) => layer === 'work',
    forbidden: ['agent', 'runtime'],
    why: 'work/ records and restores files; the agent and the runtime call it, never the other way',
  },
  {
    applies: (layer) => layer === 'export',
    forbidden: ['agent', 'runtime', STORE, 'tools', 'work', 'model', 'prompts'],
    why: 'export/ renders a session from its events; the front ends read the session and write the file',
  },
];

/**
 * The rooms inside a layer: a room is a folder under the layer (`cli/render/`), `''` the files at
 * the layer's top (`cli/main.ts`). Each room names the rooms of its layer it may import; a room
 * not listed here is not checked. These are the rules the code keeps (design.md, "Layers").
 */
interface RoomRule {
  layer: string;
  room: string;
  mayImport: readonly string[];
  /** Rooms it may load only lazily, with a dynamic `import()` (never a static import). */
  mayLoad?: readonly string[];
  why: string;
}

const ROOM_RULES: readonly RoomRule[] = [
  { layer: 'cli', room: '', mayImport: ['commands', 'render'], why: 'main.ts only wires the commands' },
  {
    layer: 'cli',
    room: 'commands',
    mayImport: ['', 'interactive', 'render'],
    why: 'a command parses, calls the runtime and renders',
  },
  {
    layer: 'cli',
    room: 'interactive',
    mayImport: ['', 'render'],
    why: 'the terminal session draws through render/ and knows no command',
  },
  {
    layer: 'cli',
    room: 'render',
    mayImport: [''],
    why: 'rendering turns events into lines and asks nothing',
  },
  {
    layer: 'agent',
    room: '',
    mayImport: [
      'state',
      'run',
      'orchestrator',
      'loop',
      'conversation',
      'protocol',
      'approval',
      'todo',
      'hooks',
      'subagents',
    ],
    why: "the agent's faces (index.ts and the light ones beside it) only hand on what the runtime uses",
  },
  {
    layer: 'agent',
    room: 'run',
    mayImport: [
      'state',
      'orchestrator',
      'loop',
      'conversation',
      'protocol',
      'approval',
      'todo',
      'hooks',
      'subagents',
    ],
    why: 'run/ is the entry: it builds a run and picks its mode and strategy',
  },
  {
    layer: 'agent',
    room: 'state',
    mayImport: [],
    why: 'state/ is the floor every room stands on: it declares what it needs of the rooms above as interfaces',
  },
  {
    layer: 'agent',
    room: 'orchestrator',
    mayImport: ['state', 'loop', 'conversation'],
    why: 'complex mode drives the loop per task; the entry (run/) calls it, never the other way',
  },
  {
    layer: 'agent',
    room: 'loop',
    mayImport: ['state', 'conversation', 'protocol', 'approval', 'hooks'],
    why: 'a step knows nothing of plans or the to-do list',
  },
  {
    layer: 'agent',
    room: 'conversation',
    mayImport: ['state'],
    why: 'the conversation is kept, masked and read back without knowing the loop, plans or runs',
  },
  { layer: 'agent', room: 'protocol', mayImport: ['state'], why: 'a wire protocol only reads replies' },
  { layer: 'agent', room: 'approval', mayImport: ['state'], why: 'approval rules decide on a call alone' },
  { layer: 'agent', room: 'todo', mayImport: ['state'], why: 'the to-do tools stand alone' },
  {
    layer: 'agent',
    room: 'subagents',
    mayImport: ['state', 'loop'],
    why: 'a subagent is a child run of the step loop; the entry (run/) offers its tool, never the other way',
  },
  {
    layer: 'agent',
    room: 'hooks',
    mayImport: ['state'],
    why: "the user's hooks run from an emit they are given",
  },
  {
    layer: 'tools',
    room: '',
    mayImport: ['builtin', 'background', 'sandbox', 'workspace', 'text', 'lsp', 'web'],
    why: "the registry lists the built-in tools; a tool's context names the workspace, sandbox, background commands, language servers and what web_fetch may reach",
  },
  {
    layer: 'tools',
    room: 'builtin',
    mayImport: ['', 'background', 'process', 'sandbox', 'workspace', 'text', 'lsp', 'web'],
    why: 'each tool is one defineTool() over the rooms that do the work; only the registry (the top) lists them',
  },
  {
    layer: 'tools',
    room: 'lsp',
    mayImport: ['', 'process', 'sandbox'],
    why: 'language servers are programs started in the sandbox; a tool adds what they report to its result',
  },
  {
    layer: 'tools',
    room: 'mcp',
    mayImport: [''],
    why: "an MCP server's tools are made with defineTool and named apart from the registry's",
  },
  {
    layer: 'tools',
    room: 'background',
    mayImport: ['process'],
    why: 'a background command is a shell command the run does not wait for',
  },
  {
    layer: 'tools',
    room: 'sandbox',
    mayImport: ['', 'process', 'workspace'],
    why: 'the sandbox wraps a command line and mounts the workspace; it runs nothing itself',
  },
  {
    layer: 'tools',
    room: 'process',
    mayImport: ['text'],
    why: 'running a command knows no tool, sandbox or workspace: it is given the command line',
  },
  {
    layer: 'tools',
    room: 'workspace',
    mayImport: [],
    why: 'the workspace and its confined file access stand on the platform alone',
  },
  {
    layer: 'tools',
    room: 'web',
    mayImport: [],
    why: "fetching a URL safely stands on the platform and its libraries; web_fetch makes the model's result",
  },
  { layer: 'tools', room: 'text', mayImport: [], why: 'text helpers are pure: every room may use them' },
  {
    layer: 'store',
    room: '',
    mayImport: [],
    mayLoad: ['sqlite', 'postgres'],
    why: 'the face (ports, rows, rules) knows no implementation; openStore loads the one chosen, lazily',
  },
  {
    layer: 'store',
    room: 'sqlite',
    mayImport: [''],
    why: 'the SQLite store implements the ports with the shared vocabulary, rules, errors and ids',
  },
  {
    layer: 'store',
    room: 'postgres',
    mayImport: [''],
    why: 'the PostgreSQL store implements the ports with the shared vocabulary, rules, errors and ids',
  },
];

/** Packages that talk to a database: only the store may import them (or a subpath of them). */
const DATABASE_PACKAGES = [
  'drizzle-orm',
  'better-sqlite3',
  'node:sqlite',
  'pg',
  '@electric-sql/pglite',
  'postgres',
];

/**
 * SQL statements as they appear in code. Upper case only, and each keyword with the word that
 * makes it a statement (`DELETE FROM`, `UPDATE x SET`), so that prose in messages and prompts
 * ("select a file", "Update the plan") does not match.
 */
const RAW_SQL =
  /\bSELECT\s[\s\S]*?\bFROM\b|\bINSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\b(?:CREATE|DROP|ALTER)\s+(?:TABLE|INDEX|VIEW|TRIGGER)\b|\bPRAGMA\s+\w+/;

function isDatabasePackage(specifier: string): boolean {
  return DATABASE_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** Checks the files under `root` (e.g. the repository's `src/`) against the layer rules. */
export function checkImportRules(root: string): ImportViolation[] {
  return checkImportGraph(buildImportGraph(root));
}

/** Checks an already read graph against the layer rules; violations come sorted by rule, then file. */
export function checkImportGraph(graph: ImportGraph): ImportViolation[] {
  const display = (file: string) => path.relative(path.dirname(graph.root), file).split(path.sep).join('/');
  const layerOf = (file: string) => {
    const parts = path.relative(graph.root, file).split(path.sep);
    return parts.length > 1 ? parts[0]! : '';
  };
  const roomOf = (file: string) => {
    const parts = path.relative(graph.root, file).split(path.sep);
    return parts.length > 2 ? parts[1]! : '';
  };
  const violations: ImportViolation[] = [...cycleViolations(graph, display)];
  for (const facts of graph.files.values()) {
    violations.push(
      ...fileViolations(facts, { display, layerOf, roomOf, isInside: (file) => graph.files.has(file) }),
    );
  }
  return violations;
}

/** One violation per distinct cycle: the shortest cycle through each file of a cyclic component. */
function cycleViolations(graph: ImportGraph, display: (file: string) => string): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const component of cyclicComponents(graph)) {
    const seen = new Set<string>();
    for (const start of component) {
      const cycle = shortestCycle(graph, component, start);
      const files = cycle.slice(0, -1).map((step) => step.file);
      // The same cycle starts at each of its files: key it by its rotation from the smallest path.
      const first = files.indexOf([...files].sort()[0]!);
      const key = [...files.slice(first), ...files.slice(0, first)].join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      const steps = cycle.map((step, index) =>
        index > 0 && step.typeOnly ? `${display(step.file)} (type import)` : display(step.file),
      );
      const group =
        component.length > files.length ? ` (one of the cycles among ${component.length} files)` : '';
      violations.push({
        rule: 'cycle',
        files: files.map(display),
        message: `import cycle: ${steps.join(' → ')}${group}`,
      });
    }
  }
  return violations;
}

function fileViolations(
  facts: SourceFileFacts,
  context: {
    display: (file: string) => string;
    layerOf: (file: string) => string;
    roomOf: (file: string) => string;
    isInside: (file: string) => boolean;
  },
): ImportViolation[] {
  const { display, layerOf, roomOf, isInside } = context;
  const violations: ImportViolation[] = [];
  const source = display(facts.file);
  const layer = layerOf(facts.file);
  for (const edge of facts.imports) {
    if (edge.unresolved) {
      violations.push({
        rule: 'unresolved',
        files: [source],
        message: `${source} imports '${edge.specifier}', which names no file`,
      });
      continue;
    }
    if (layer !== STORE && isDatabasePackage(edge.specifier)) {
      violations.push({
        rule: 'database-import',
        files: [source],
        message: `${source} imports '${edge.specifier}': database access lives only in src/store`,
      });
      continue;
    }
    if (layer === '' || edge.resolved === undefined || !isInside(edge.resolved)) continue;
    const targetLayer = layerOf(edge.resolved);
    if (targetLayer === layer) {
      const violation = roomViolation(
        layer,
        roomOf(facts.file),
        roomOf(edge.resolved),
        edge.dynamic === true,
      );
      if (violation !== undefined) {
        const target = display(edge.resolved);
        const kind = edge.typeOnly ? 'type import' : 'import';
        violations.push({
          rule: 'room',
          files: [source, target],
          message: `${source} → ${target} (${kind}): ${violation}`,
        });
      }
      continue;
    }
    const deep = deepImport(path.relative(path.dirname(facts.file), edge.resolved), roomOf(edge.resolved));
    if (deep) {
      const target = display(edge.resolved);
      violations.push({
        rule: 'deep',
        files: [source, target],
        message: `${source} → ${target}: imports a file inside ${targetLayer}/${roomOf(edge.resolved)}/ (import ${targetLayer}'s face: its top-level files or ${targetLayer}/${roomOf(edge.resolved)}/index.ts)`,
      });
    }
    for (const rule of LAYER_RULES) {
      if (!rule.applies(layer) || !forbids(rule, targetLayer)) continue;
      const target = display(edge.resolved);
      const kind = edge.typeOnly ? 'type import' : 'import';
      violations.push({
        rule: 'layer',
        files: [source, target],
        message: `${source} → ${target} (${kind}): ${layer} must not import ${targetLayer} (${rule.why})`,
      });
    }
  }
  if (layer !== STORE) {
    for (const literal of facts.strings) {
      const match = RAW_SQL.exec(literal.text);
      if (match === null) continue;
      violations.push({
        rule: 'raw-sql',
        files: [source],
        message: `${source}:${literal.line} holds raw SQL ('${match[0].slice(0, 60)}'): SQL lives only in src/store`,
      });
    }
  }
  return violations;
}

/**
 * Whether an import from another layer names a file inside one of the target layer's rooms
 * other than the room's face (`index.ts`).
 */
function deepImport(relativeTarget: string, targetRoom: string): boolean {
  if (targetRoom === '') return false;
  return !/^index\.tsx?$/.test(path.basename(relativeTarget));
}

/** Why an import from one room of a layer to another breaks a room rule, or undefined. */
function roomViolation(
  layer: string,
  room: string,
  targetRoom: string,
  dynamic: boolean,
): string | undefined {
  if (room === targetRoom) return undefined;
  const rule = ROOM_RULES.find((candidate) => candidate.layer === layer && candidate.room === room);
  if (rule === undefined || rule.mayImport.includes(targetRoom)) return undefined;
  if (dynamic && rule.mayLoad?.includes(targetRoom)) return undefined;
  const name = (part: string) => (part === '' ? `${layer}/ (top)` : `${layer}/${part}/`);
  return `${name(room)} must not import ${name(targetRoom)} (${rule.why})`;
}

/** The rooms the rules name, per layer: each must exist and open with a README.md. */
export function ruledRooms(): { layer: string; room: string }[] {
  return ROOM_RULES.filter((rule) => rule.room !== '').map(({ layer, room }) => ({ layer, room }));
}

/** The violations as one readable block, one per line. */
export function formatViolations(violations: readonly ImportViolation[]): string {
  return violations.map((violation) => `- [${violation.rule}] ${violation.message}`).join('\n');
}
