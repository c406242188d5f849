import type { StepItem, SubagentView } from '../../../src/events/session-view.js';
import { formatUsage } from './format.js';
import { Markdown } from './markdown.js';
import { ToolCall } from './tool-call.js';

/**
 * A subagent under its delegate call: a collapsible card with the agent, its job, its steps so
 * far and its last tool while it runs, its answer (or why it ended) and what it spent; inside,
 * its own steps with their tool calls. Open while it runs.
 */
export function SubagentCard({ subagent }: { subagent: SubagentView }) {
  const running = subagent.status === 'running';
  const steps = subagent.view.items.filter((item): item is StepItem => item.kind === 'step');
  const tokens = subagent.usage.input + subagent.usage.output;
  return (
    <details
      className={`subagent subagent-${running ? 'running' : subagent.status}`}
      open={running}
      aria-label={`Subagent ${subagent.agent}`}
    >
      <summary>
        <span className="badge badge-agent">{subagent.agent}</span>{' '}
        <span className="subagent-job">{subagent.job}</span>
        <span className="tool-display">
          {' '}
          · {subagent.steps === 1 ? '1 step' : `${subagent.steps} steps`}
          {running && subagent.lastTool ? ` · ${subagent.lastTool}` : ''}
          {running ? ' · running' : subagent.status === 'completed' ? '' : ` · ${subagent.status}`}
          {tokens > 0 ? ` · ${formatUsage(subagent.usage)}` : ''}
        </span>
      </summary>
      <div className="subagent-steps">
        {steps.map((step) => (
          <section key={step.id} className="subagent-step" aria-label={`${subagent.agent} step ${step.step}`}>
            <span className="badge">Step {step.step}</span>
            {step.text && <Markdown text={step.text} />}
            {step.tools.map((call) => (
              <ToolCall key={call.callId} call={call} />
            ))}
            {step.notes.map((note, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: notes only grow
              <p key={index} className="note small">
                Note: {note}
              </p>
            ))}
          </section>
        ))}
      </div>
      {/* The answer shows once: it is usually the last step's text already. */}
      {subagent.answer !== undefined &&
        !steps.some((step) => step.text.trim() === subagent.answer?.trim()) && (
          <div className="subagent-answer">
            <Markdown text={subagent.answer} />
          </div>
        )}
      {subagent.reason !== undefined && <p className="warning small">{subagent.reason}</p>}
      {subagent.files.length > 0 && <p className="muted small">Changed: {subagent.files.join(', ')}</p>}
    </details>
  );
}
