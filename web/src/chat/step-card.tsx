import type { StepItem } from '../../../src/events/session-view.js';
import { filesOf, stepKey, useCheckpointsState } from '../checkpoints/checkpoints-context.js';
import { UndoControl } from '../checkpoints/undo-control.js';
import { formatUsage } from './format.js';
import { Markdown } from './markdown.js';
import { ToolCall } from './tool-call.js';

/** A step as a card: badge (and task label), reasoning, streamed text, tool calls, observation, notes. */
export function StepCard({
  step,
  live,
  runGoesOn,
  taskTitle,
}: {
  step: StepItem;
  live: boolean;
  runGoesOn: boolean;
  taskTitle?: string;
}) {
  const tokens = step.usage.input + step.usage.output;
  return (
    <article
      className={`card step${step.rewound ? ' rewound' : ''}`}
      aria-label={`Step ${step.step}${step.taskId ? ` of task ${step.taskId}` : ''}`}
    >
      <header className="card-header">
        <span className="badge">Step {step.step}</span>
        {step.taskId && (
          <span className="badge badge-task" title={taskTitle}>
            {step.taskId}
          </span>
        )}
        {tokens > 0 && <span className="muted small">{formatUsage(step.usage)}</span>}
        {step.rewound && (
          <span className="badge badge-rewound" title="An undo or rewind took this step's file changes back">
            Rewound
          </span>
        )}
      </header>
      {runGoesOn && step.text === '' && step.tools.length === 0 && !step.reason && (
        <p className="muted small thinking">Thinking…</p>
      )}
      {step.retries.map((retry) => (
        <p key={retry.attempt} className="warning small">
          Model call failed ({retry.error}); retry {retry.attempt + 1} in {(retry.delayMs / 1000).toFixed(1)}{' '}
          s.
        </p>
      ))}
      {step.reason && (
        <section className="phase">
          <h4>Reason</h4>
          <Markdown text={step.reason} />
        </section>
      )}
      {step.text && (
        <div className={live ? 'streaming' : undefined}>
          <Markdown text={step.text} />
        </div>
      )}
      {step.tools.length > 0 && (
        <div className="tools">
          {step.tools.map((call) => (
            <ToolCall key={call.callId} call={call} />
          ))}
        </div>
      )}
      {step.observe && (
        <section className="phase">
          <h4>Observe{step.observe.shouldContinue === false ? ' · done' : ''}</h4>
          <Markdown text={step.observe.content} />
        </section>
      )}
      {step.notes.map((note, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: notes only grow
        <p key={index} className="note small">
          Note: {note}
        </p>
      ))}
      <StepUndo step={step} />
      {step.refusedRemaining !== undefined && (
        <p className="warning small">
          Final answer refused: {step.refusedRemaining} task(s) remain, so the run goes on.
        </p>
      )}
    </article>
  );
}

/**
 * Undo on a step that changed files: back to before it (its checkpoint and the later ones that
 * still stand), with the files listed and a confirmation; the conversation too when asked.
 */
function StepUndo({ step }: { step: StepItem }) {
  const state = useCheckpointsState();
  if (!state) return null;
  const key = stepKey(step.runId, step.taskId, step.step);
  const own = state.checkpoints.find(
    (checkpoint) => stepKey(checkpoint.run_id, checkpoint.task_id, checkpoint.step) === key,
  );
  if (!own || own.undone === 'yes') return null;
  const later = state.checkpoints.filter(
    (checkpoint) => checkpoint.number > own.number && checkpoint.undone !== 'yes',
  );
  const files = filesOf([own, ...later]);
  return (
    <UndoControl
      key={`${own.number}:${own.undone}:${later.length}`}
      label="Undo"
      files={files}
      note={
        later.length > 0
          ? `The ${later.length} later step${later.length === 1 ? '' : 's'} that changed files ${later.length === 1 ? 'is' : 'are'} undone too (checkpoints ${own.number}–${later[later.length - 1]?.number}).`
          : undefined
      }
      conversation={step.taskId === undefined}
      disabled={state.running}
      onConfirm={(withConversation) =>
        state.restore('rewind', {
          to: own.number,
          ...(step.taskId === undefined ? {} : { taskId: step.taskId }),
          mode: withConversation ? 'both' : 'code',
        })
      }
    />
  );
}
