/**
 * Prompt weight: the bytes of each kind of request the agent sends, split into the system
 * prompt, the tool definitions and the messages (history), as the provider receives them.
 *
 * The whole agent runs one planned goal with the script model, which records every call: the
 * first request (the user's goal, plan_actions offered), the first request of a plan task (its
 * fixed cost: system prompt, tools and task prompt, before any history), a later step of a task
 * (with the history of its first step) and the final-answer request. Byte counts do not depend on
 * the machine: one run is enough.
 *
 * Run: npx tsx bench/prompt.ts   (exit code 1 when a target is missed)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV3CallOptions, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import { SessionApprovals } from '../src/agent/approval/session-approvals.js';
import { runAgent } from '../src/agent/run/run-agent.js';
import { RunControl } from '../src/agent/state/control.js';
import { Journal } from '../src/agent/state/journal.js';
import { runAgents } from '../src/agent/subagents/builtin-agents.js';
import { DEFAULT_SUBAGENT_DEPTH } from '../src/agent/subagents/subagent.js';
import { renderTable } from '../src/cli/render/table.js';
import { EventBus } from '../src/events/bus.js';
import { ScriptModel } from '../src/model/script-model.js';
import { parseModelScript } from '../src/model/script-schema.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { Workspace } from '../src/tools/workspace/workspace.js';

const MAX_FIRST_REQUEST_BYTES = 10 * 1024;
const MAX_TASK_FIXED_BYTES = 8 * 1024;
const GOAL = 'Create notes.txt with a short greeting, then create todo.txt listing two chores.';

/** One recorded model call, weighed. */
interface Request {
  taskId?: string;
  phase?: string;
  system: number;
  tools: number;
  toolNames: string[];
  messages: number;
}

/** The script model, recording the weight of every call it answers. */
class RecordingScriptModel extends ScriptModel {
  readonly requests: Request[] = [];

  override async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const tag = (options.providerOptions?.taskweave ?? {}) as { taskId?: string; phase?: string };
    const system = options.prompt.filter((message) => message.role === 'system');
    const rest = options.prompt.filter((message) => message.role !== 'system');
    const tools = (options.tools ?? []).map((tool) =>
      tool.type === 'function'
        ? { name: tool.name, description: tool.description, input_schema: tool.inputSchema }
        : tool,
    );
    this.requests.push({
      taskId: tag.taskId,
      phase: tag.phase,
      system: bytes(system.map((message) => message.content).join('\n')),
      tools: tools.length === 0 ? 0 : bytes(JSON.stringify(tools)),
      toolNames: tools.map((tool) => tool.name),
      messages: bytes(JSON.stringify(rest)),
    });
    return super.doStream(options);
  }
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const script = parseModelScript(
  {
    turns: [
      {
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                { id: 'notes', title: 'Write notes.txt', description: 'A short greeting.', depends_on: [] },
                { id: 'todo', title: 'Write todo.txt', description: 'Two chores.', depends_on: ['notes'] },
              ],
            },
          },
        ],
      },
      {
        task: 'notes',
        toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'Hello.\n' } }],
      },
      { task: 'notes', toolCalls: [{ name: 'task_completed', args: { summary: 'notes.txt written.' } }] },
      { task: 'todo', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      {
        task: 'todo',
        toolCalls: [
          { name: 'write_file', args: { path: 'todo.txt', content: '- dishes\n- laundry\n' } },
          { name: 'task_completed', args: { summary: 'todo.txt written.' } },
        ],
      },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Both files are written.' } }] },
    ],
  },
  'bench-prompt',
);

const model = new RecordingScriptModel(script, 'bench-prompt');
const root = await mkdtemp(path.join(tmpdir(), 'taskweave-bench-prompt-'));
await writeFile(path.join(root, 'README.md'), '# bench\n');
const workspace = await Workspace.open(root);
const store = openSqliteStore({ path: ':memory:' });
const sessionId = (
  await store.sessions.createSession({ title: 'bench', goal: GOAL, workspace: root, model: 'script' })
).id;
const result = await runAgent({
  goal: GOAL,
  model: { id: 'script:bench-prompt', model },
  workspace,
  journal: new Journal({ sessionId, store, bus: new EventBus() }),
  store,
  control: new RunControl({ policy: { input: 'nobody', plan: 'approve', failure: 'abort' } }),
  // Every call runs unasked, unsandboxed: only the requests' bytes are measured.
  safety: {
    approval: { mode: 'auto', allow: [], deny: [] },
    remembered: new SessionApprovals(),
    sandbox: { kind: 'none' },
    sandboxMissing: false,
    sandboxLabel: 'off',
  },
  concurrency: 1,
  // The built-in agents, as the runtime offers them: delegate is part of every request's tools.
  subagents: { agents: runAgents([]), maxDepth: DEFAULT_SUBAGENT_DEPTH },
});
await store.close();
await rm(root, { recursive: true, force: true });
if (result.status !== 'completed') throw new Error(`The run ended ${result.status}: ${result.reason}`);

const { requests } = model;
const taskCalls = requests.filter((request) => request.taskId === 'todo');
const kinds: { kind: string; request: Request | undefined }[] = [
  { kind: 'first request', request: requests[0] },
  { kind: 'plan task, first step', request: taskCalls[0] },
  { kind: 'plan task, second step', request: taskCalls[1] },
  // The final-answer request is the run's last call.
  { kind: 'final answer', request: requests.at(-1) },
];
const rows = kinds.map(({ kind, request }) => {
  if (!request) throw new Error(`No ${kind} was recorded.`);
  return { kind, request, total: request.system + request.tools + request.messages };
});

console.log(`Bytes per request (UTF-8; tools as name + description + JSON schema), goal: "${GOAL}"`);
process.stdout.write(
  renderTable({
    columns: [
      { header: 'request', align: 'left' },
      { header: 'system', align: 'right' },
      { header: 'tools', align: 'right' },
      { header: 'history', align: 'right' },
      { header: 'total', align: 'right' },
      { header: 'tools offered', align: 'left' },
    ],
    rows: rows.map(({ kind, request, total }) => [
      kind,
      String(request.system),
      String(request.tools),
      String(request.messages),
      String(total),
      `${request.toolNames.length}: ${request.toolNames.join(', ')}`,
    ]),
  }),
);
const first = rows[0]!.total;
const taskFixed = rows[1]!.total;
const firstMet = first <= MAX_FIRST_REQUEST_BYTES;
const taskFixedMet = taskFixed <= MAX_TASK_FIXED_BYTES;
const pass = firstMet && taskFixedMet;
const verdict = (met: boolean) => (met ? 'met' : 'missed');
console.log(
  `prompt: first request ${(first / 1024).toFixed(1)} KB (target ≤ ${MAX_FIRST_REQUEST_BYTES / 1024} KB: ${verdict(firstMet)}), ` +
    `plan task fixed cost ${(taskFixed / 1024).toFixed(1)} KB (target ≤ ${MAX_TASK_FIXED_BYTES / 1024} KB: ${verdict(taskFixedMet)}) — ${pass ? 'PASS' : 'FAIL'}`,
);
if (!pass) process.exitCode = 1;
