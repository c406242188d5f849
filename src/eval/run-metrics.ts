import type { ServerEvent } from '../events/registry.js';

/** What one run spent and what taskweave's mechanisms did in it, counted from its events. */
export interface RunMetrics {
  /** Steps of the run (agent_completion) and of its subagents (subagent_ended). */
  steps: number;
  /** Model calls (model_usage events). */
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** The largest input of one of the run's own model calls (its subagents' aside), in tokens. */
  largestRequest: number;
  /** final_answer_refused events: premature final answers taskweave refused. */
  refusedFinalAnswers: number;
  /** agent_note events: recovery rules that fired, failed task checks, nudges to an idle model. */
  notes: number;
  /** Questions the agent asked (agent_request_input). */
  questions: number;
}

/** Folds the events of a run into its metrics, as they arrive. */
export class MetricsCounter {
  readonly metrics: RunMetrics = {
    steps: 0,
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    largestRequest: 0,
    refusedFinalAnswers: 0,
    notes: 0,
    questions: 0,
  };

  /** Input and output tokens so far. */
  get tokens(): number {
    return this.metrics.inputTokens + this.metrics.outputTokens;
  }

  add(event: ServerEvent): void {
    if (event.type !== 'agent_update') return;
    const { metrics } = this;
    switch (event.update_type) {
      case 'model_usage':
        metrics.modelCalls += 1;
        metrics.inputTokens += event.input_tokens;
        metrics.outputTokens += event.output_tokens;
        if (event.agent === undefined)
          metrics.largestRequest = Math.max(metrics.largestRequest, event.input_tokens);
        break;
      case 'subagent_ended':
        metrics.steps += event.steps;
        break;
      case 'agent_completion':
        metrics.steps += event.steps;
        break;
      case 'final_answer_refused':
        metrics.refusedFinalAnswers += 1;
        break;
      case 'agent_note':
        metrics.notes += 1;
        break;
      case 'agent_request_input':
        metrics.questions += 1;
        break;
      default:
        break;
    }
  }
}
