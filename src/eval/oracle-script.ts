import type { ModelScriptInput } from '../runtime/configuration.js';
import type { Ablation } from './ablation.js';
import type { Oracle, OracleAction, OraclePart } from './oracle.js';

type Turn = ModelScriptInput['turns'][number];
type ToolCall = NonNullable<Turn['toolCalls']>[number];

/**
 * The script models eval offers without an API key (`--model script:oracle`,
 * `--model script:stop-early`): `oracle` does each part of the scenario and finishes; `stop-early`
 * declares the request done after its first part and goes on only when taskweave refuses that.
 */
export const SCRIPT_KINDS = ['oracle', 'stop-early'] as const;

/** One of SCRIPT_KINDS. */
export type ScriptKind = (typeof SCRIPT_KINDS)[number];

/** The script kind a model name means (`script:oracle`, `script:stop-early`), if any. */
export function scriptKind(model: string): ScriptKind | undefined {
  const name = model.startsWith('script:') ? model.slice('script:'.length) : '';
  return SCRIPT_KINDS.find((kind) => kind === name);
}

/** Matches the prompt of the call that asks for a plan's final answer (orchestrator.ts). */
const FINAL_ANSWER_PROMPT = 'tasks are done. Call final_answer';

/**
 * Builds the script a model of this kind plays for a scenario under an ablation. The replies
 * differ only in how the agent runs: with the orchestrator each part is a plan task (its turns
 * tagged with the task); when the model tracks the plan, or does not plan, the parts follow one
 * another in one conversation. A one-part scenario is done without a plan.
 */
export function oracleScript(options: {
  oracle: Oracle;
  ablation: Ablation;
  kind: ScriptKind;
}): ModelScriptInput {
  const { oracle, ablation, kind } = options;
  const { parts } = oracle;
  const early = (part: OraclePart) => `That completes the request: ${part.title.toLowerCase()} is done.`;
  if (parts.length === 1 || ablation === 'no-plans' || ablation === 'no-tracking') {
    const turns: Turn[] = [];
    if (parts.length > 1 && ablation === 'no-tracking')
      turns.push({
        text: `This request has ${parts.length} parts; I will plan them.`,
        toolCalls: [planCall(parts)],
      });
    parts.forEach((part, index) => {
      turns.push(...partTurns(part, oracle, ablation));
      if (kind === 'stop-early' && index === 0 && parts.length > 1) turns.push({ text: early(part) });
    });
    turns.push({ text: oracle.answer });
    return { turns };
  }
  const turns: Turn[] = [
    { text: `This request has ${parts.length} parts; I will plan them.`, toolCalls: [planCall(parts)] },
  ];
  parts.forEach((part, index) => {
    if (kind === 'stop-early' && index === 1) {
      turns.push({
        task: part.id,
        text: early(parts[0]!),
        toolCalls: [{ name: 'final_answer', args: { answer: early(parts[0]!) } }],
      });
    }
    const work = partTurns(part, oracle, ablation);
    const last = work.at(-1)!;
    last.toolCalls = [
      ...(last.toolCalls ?? []),
      { name: 'task_completed', args: { summary: `${part.title}: done.` } },
    ];
    turns.push(...work.map((turn) => ({ ...turn, task: part.id })));
  });
  turns.push({
    when: FINAL_ANSWER_PROMPT,
    toolCalls: [{ name: 'final_answer', args: { answer: oracle.answer } }],
  });
  return { turns };
}

function planCall(parts: OraclePart[]): ToolCall {
  return {
    name: 'plan_actions',
    args: {
      tasks: parts.map((part) => ({
        id: part.id,
        title: part.title,
        description: part.description,
        depends_on: part.after,
      })),
    },
  };
}

type ExploreAction = Extract<OracleAction, { explore: string }>;

/**
 * A part's actions as replies: one reply per question, one for the calls between questions, and
 * one for consecutive look-ups: their delegate calls at once (each explorer's turns tagged with
 * its agent, matched by its job), or under `no-delegate` one reply of reads per look-up.
 */
function partTurns(part: OraclePart, oracle: Oracle, ablation: Ablation): Turn[] {
  const turns: Turn[] = [];
  let calls: ToolCall[] = [];
  let lookups: ExploreAction[] = [];
  const flush = () => {
    if (calls.length > 0) turns.push({ text: `${part.title}.`, toolCalls: calls });
    calls = [];
  };
  const flushLookups = () => {
    if (lookups.length === 0) return;
    if (ablation === 'no-delegate') {
      // One reply per look-up: a reply's calls are capped (MAX_TOOL_CALLS_PER_REPLY).
      for (const lookup of lookups)
        turns.push({
          text: 'I will read these files.',
          toolCalls: lookup.read.map((file) => readCall(file)),
        });
    } else {
      turns.push({
        text: `${lookups.length} explorers look at once.`,
        toolCalls: lookups.map((lookup) => ({
          name: 'delegate',
          args: { agent: 'explore', job: lookup.explore },
        })),
      });
      for (const lookup of lookups)
        turns.push(
          { agent: 'explore', when: lookup.explore, toolCalls: lookup.read.map((file) => readCall(file)) },
          { agent: 'explore', when: lookup.explore, text: lookup.answer },
        );
    }
    lookups = [];
  };
  for (const action of part.actions) {
    if ('explore' in action) {
      flush();
      lookups.push(action);
      continue;
    }
    flushLookups();
    if ('ask' in action) {
      flush();
      turns.push({ toolCalls: [{ name: 'request_input', args: { question: action.ask } }] });
    } else {
      calls.push(toolCall(action, oracle));
    }
  }
  flushLookups();
  flush();
  return turns;
}

function readCall(file: string): ToolCall {
  return { name: 'read_file', args: { path: file } };
}

function toolCall(action: Exclude<OracleAction, { ask: string } | ExploreAction>, oracle: Oracle): ToolCall {
  if ('write' in action)
    return {
      name: 'write_file',
      args: { path: action.write, content: oracle.files.get(action.write) ?? '' },
    };
  if ('remove' in action) return { name: 'run_command', args: { command: `rm -f -- '${action.remove}'` } };
  return { name: 'run_command', args: { command: action.run } };
}
