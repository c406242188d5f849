import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunSafety } from '../../src/agent/approval/run-safety.js';
import { type RunAgentOptions, type RunResult, runAgent } from '../../src/agent/run/run-agent.js';
import { type PlanDecision, type RequestPolicy, RunControl } from '../../src/agent/state/control.js';
import { Journal } from '../../src/agent/state/journal.js';
import type { RequestAnswer } from '../../src/agent/state/requests.js';
import { EventBus } from '../../src/events/bus.js';
import type { ServerEvent } from '../../src/events/registry.js';
import type { ResolvedModel } from '../../src/model/types.js';
import type { FailureDecision } from '../../src/plan/scheduler.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Tool } from '../../src/tools/types.js';
import { Workspace } from '../../src/tools/workspace/workspace.js';
import { runsEverything } from './safety.js';

/** A test's stand-in for a person answering questions (answered through the run's control). */
export type InputProvider = (request: { requestId: string; question: string }) => Promise<string | null>;
/** A test's stand-in for a person deciding on plans; null stops the run. */
export type PlanApprover = (plan: { planId: string }) => Promise<PlanDecision | null>;
/** A test's stand-in for a person deciding about a failed task. */
export type FailureChooser = (info: {
  task: { id: string };
  reason: string;
  blocked: { id: string }[];
  /** What the request offers (`resolve` only for a merge conflict). */
  choices: string[];
}) => Promise<FailureDecision>;

/** Approves every plan: the `--yes` rule (answered by the run itself, not through a request). */
export const autoApprove: PlanApprover = async () => ({ decision: 'approve' });

export interface HarnessOptions {
  model: ResolvedModel;
  goal?: string;
  tools?: Tool[];
  maxSteps?: number;
  inputProvider?: InputProvider;
  inputTimeoutMs?: number;
  planApprover?: PlanApprover;
  failureChooser?: FailureChooser;
  plan?: RunAgentOptions['plan'];
  concurrency?: number;
  onFailure?: RunAgentOptions['onFailure'];
  /** Where plan tasks work (shared when left out). */
  isolation?: RunAgentOptions['isolation'];
  protocol?: RunAgentOptions['protocol'];
  /** The store and session to record the run in; a fresh in-memory store when left out. */
  store?: Store;
  sessionId?: string;
  loop?: RunAgentOptions['loop'];
  taskTracking?: RunAgentOptions['taskTracking'];
  ownTaskId?: string;
  workspaceRoot?: string;
  /** When calls are asked and how commands run; everything runs unasked and unconfined when left out. */
  safety?: RunSafety;
  /** Answers approvals (by request id, as a front end does); none: approvals end the run (needs_input). */
  approver?: (request: { requestId: string; name: string; preview: string }) => Promise<RequestAnswer>;
  /** Earlier messages of the session (a continued session). */
  history?: RunAgentOptions['history'];
  /** The session's background commands (run_command `background: true`); none when left out. */
  background?: RunAgentOptions['background'];
  /** The run's language servers (diagnostics after changes); none when left out. */
  languageServers?: RunAgentOptions['languageServers'];
  /** The agents delegate may start; no delegate tool when left out. */
  subagents?: RunAgentOptions['subagents'];
  /** Called with each event as it is announced (e.g. to stop the run at a given moment). */
  onEvent?: (event: ServerEvent, control: RunControl) => void;
}

/** A finished run with everything a test wants to look at. */
export interface HarnessRun {
  result: RunResult;
  events: ServerEvent[];
  workspace: Workspace;
  control: RunControl;
  store: Store;
  sessionId: string;
}

/** Makes a fresh temp folder for a workspace. */
export async function tempWorkspaceRoot(prefix = 'taskweave-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/**
 * Runs the agent on a temp workspace with a real store and bus, collecting every event. The
 * test's responders answer requests the way a front end does: they watch the events and answer
 * by request id through the control.
 */
export async function runWithHarness(options: HarnessOptions): Promise<HarnessRun> {
  const workspace = await Workspace.open(options.workspaceRoot ?? (await tempWorkspaceRoot()));
  const policy: RequestPolicy = {
    input: options.inputProvider ? 'ask' : 'nobody',
    plan: options.planApprover === autoApprove ? 'approve' : options.planApprover ? 'ask' : 'nobody',
    failure: options.failureChooser ? 'ask' : (options.onFailure ?? 'abort'),
    approval: options.approver ? 'ask' : 'nobody',
  };
  const control = new RunControl({ policy, inputTimeoutMs: options.inputTimeoutMs });
  const store = options.store ?? openSqliteStore({ path: ':memory:' });
  const sessionId =
    options.sessionId ??
    (await store.sessions.createSession({ title: 't', goal: 'g', workspace: workspace.root, model: 'test' }))
      .id;
  const bus = new EventBus();
  const events: ServerEvent[] = [];
  bus.subscribe((event) => {
    events.push(event);
    respond(event, control, options);
    options.onEvent?.(event, control);
  });
  const result = await runAgent({
    goal: options.goal ?? 'do the thing',
    model: options.model,
    workspace,
    journal: new Journal({ sessionId, store, bus }),
    store,
    control,
    safety: options.safety ?? runsEverything(),
    maxSteps: options.maxSteps,
    tools: options.tools,
    plan: options.plan,
    concurrency: options.concurrency,
    onFailure: options.onFailure,
    isolation: options.isolation,
    protocol: options.protocol,
    loop: options.loop,
    taskTracking: options.taskTracking,
    ownTaskId: options.ownTaskId,
    history: options.history,
    background: options.background,
    languageServers: options.languageServers,
    subagents: options.subagents,
  });
  return { result, events, workspace, control, store, sessionId };
}

/** Answers the requests an event carries with the test's responders. */
function respond(event: ServerEvent, control: RunControl, options: HarnessOptions): void {
  if (event.type !== 'agent_update') return;
  const { inputProvider, planApprover, failureChooser, approver } = options;
  if (event.update_type === 'approval_requested' && approver) {
    const request = { requestId: event.request_id, name: event.name, preview: event.preview };
    void approver(request).then((answer) => control.answer(event.request_id, answer));
  }
  if (event.update_type === 'agent_request_input' && inputProvider) {
    void inputProvider({ requestId: event.request_id, question: event.question }).then((content) => {
      if (content === null) control.stop();
      else control.answer(event.request_id, { kind: 'input', content });
    });
  }
  if (event.update_type === 'plan_proposed' && planApprover && planApprover !== autoApprove) {
    void planApprover({ planId: event.plan_id }).then((decision) => {
      if (decision === null) control.stop();
      else control.answer(event.plan_id, { kind: 'plan', ...decision });
    });
  }
  if (event.update_type === 'failure_decision_requested' && failureChooser) {
    const info = {
      task: { id: event.task_id },
      reason: event.reason,
      blocked: event.blocked.map((id) => ({ id })),
      choices: [...event.choices],
    };
    void failureChooser(info).then((decision) =>
      control.answer(event.request_id, { kind: 'failure', decision: decision.action }),
    );
  }
}

/** The update types and top-level types of events, in order, for sequence assertions. */
export function eventKinds(events: ServerEvent[]): string[] {
  return events.map((event) => (event.type === 'agent_update' ? event.update_type : event.type));
}
