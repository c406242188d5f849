import { fillSection } from '../../prompts/template.js';

/**
 * One plan at a time per plan_actions tool: a reply with two plan_actions calls (they run
 * together, being read-only) would otherwise have two plans approved, one run and the other
 * left approved with nothing running it, for a later resume to run. The second call is refused
 * with a message the model can act on; so is any call once a plan was approved (the
 * orchestrator runs it from then on).
 */
export class OnePlanAtATime {
  private inFlight: string | undefined;
  private done = false;

  /** Takes the turn for a call, or says why it is refused. */
  enter(callId: string): string | undefined {
    if (this.done) {
      return fillSection('plan-tool', 'already-approved');
    }
    if (this.inFlight !== undefined) {
      return fillSection('plan-tool', 'one-per-reply', { call: this.inFlight });
    }
    this.inFlight = callId;
    return undefined;
  }

  /** The call's plan was approved: later calls are refused. */
  approved(): void {
    this.done = true;
  }

  /** The call ended (invalid, rejected, approved or stopped). */
  leave(callId: string): void {
    if (this.inFlight === callId) this.inFlight = undefined;
  }
}
