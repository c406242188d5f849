import type {
  AgentContext,
  ClientCapabilities,
  ContentBlock,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ServerEvent } from '../events/registry.js';
import type { RunOptions, Taskweave } from '../runtime/index.js';
import { approvalAsk, failureAsk, type PermissionAsk, planAsk } from './permissions.js';
import { promptText } from './prompt-text.js';
import { SessionUpdates } from './session-updates.js';

/** What a session needs of the agent around it. */
export interface SessionPorts {
  client: AgentContext;
  capabilities: ClientCapabilities;
  /** Writes a line to the log (stderr): never stdout, which is the protocol. */
  log: (text: string) => void;
}

interface Following {
  events: AsyncIterator<ServerEvent>;
  /** The question the last prompt turn ended on (asked as a message): the next prompt answers it. */
  question?: string;
}

/**
 * One ACP session over one taskweave session: a prompt submits a goal (or answers the question
 * the last turn ended on) and follows its events as `session/update`s until it ends; requests
 * go to the editor as permission requests (or elicitations) and come back as answers.
 */
export class AcpSession {
  private readonly updates: SessionUpdates;
  private following: Following | undefined;
  private cancelled = false;
  /** The last run ended because the model's provider refused to answer (`agent_completion.refused`). */
  private refused = false;

  constructor(
    readonly id: string,
    readonly taskweave: Taskweave,
    private readonly ports: SessionPorts,
  ) {
    this.updates = new SessionUpdates(taskweave.workspace, taskweave.contextWindow);
  }

  /** Sends the session's logged events as updates (a `session/load`): the history replayed. */
  async replay(): Promise<void> {
    for (const event of await this.taskweave.sessions.events(this.id))
      for (const update of this.updates.map(event, { replay: true })) await this.send(update);
  }

  /**
   * Takes in the session's logged events without sending them (a `session/resume`): the plan,
   * the usage totals and the calls are known, the editor is not sent its history again.
   */
  async catchUp(): Promise<void> {
    for (const event of await this.taskweave.sessions.events(this.id))
      this.updates.map(event, { replay: true });
  }

  /**
   * `session/close`: the session's run stops (its prompt ends `cancelled`), its queued goals are
   * cancelled, and its workspace closes.
   */
  async close(): Promise<void> {
    await this.cancel();
    await this.taskweave.close();
  }

  /** One prompt turn: resolves with why it stopped. */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    const text = promptText(blocks).trim();
    if (text === '')
      throw RequestError.invalidParams(undefined, 'The prompt is empty: say what taskweave should do.');
    this.cancelled = false;
    const following = this.following;
    if (following?.question !== undefined) {
      const answered = await this.taskweave.answer(following.question, { kind: 'input', content: text });
      following.question = undefined;
      if (!answered.ok) await this.send(agentText(`(Not taken as the answer: ${answered.error})\n`));
      return this.follow(following);
    }
    if (following !== undefined)
      throw RequestError.invalidRequest(undefined, 'A prompt of this session is still running.');
    const run = await this.goalRun(text);
    const next: Following = { events: run[Symbol.asyncIterator]() };
    this.following = next;
    return this.follow(next);
  }

  /** `session/cancel`: the run stops at its next phase boundary; the prompt then ends `cancelled`. */
  async cancel(): Promise<void> {
    if (this.following === undefined) return;
    this.cancelled = true;
    await this.taskweave.stop(this.id);
  }

  private async goalRun(text: string) {
    const settings: RunOptions = { session: this.id };
    // `/name args` naming a custom command starts the goal of its file, with its settings.
    const custom = text.startsWith('/') ? await this.taskweave.runtime.customCommandGoal(text) : undefined;
    return custom
      ? this.taskweave.run(custom.goal, { ...settings, ...custom.settings })
      : this.taskweave.run(text, settings);
  }

  private async follow(following: Following): Promise<StopReason> {
    for (;;) {
      let next: IteratorResult<ServerEvent>;
      try {
        next = await following.events.next();
      } catch (error) {
        this.following = undefined;
        throw RequestError.internalError(undefined, (error as Error).message);
      }
      if (next.done) {
        this.following = undefined;
        return this.cancelled ? 'cancelled' : 'end_turn';
      }
      const event = next.value;
      for (const update of this.updates.map(event)) await this.send(update);
      const stop = await this.answerable(event, following);
      if (stop !== undefined) return stop;
    }
  }

  /** What an event asks of the editor; a stop reason when the turn ends with it. */
  private async answerable(event: ServerEvent, following: Following): Promise<StopReason | undefined> {
    if (event.type === 'response_complete') {
      this.following = undefined;
      return this.stopReason(event.status);
    }
    if (event.type !== 'agent_update') return undefined;
    switch (event.update_type) {
      case 'agent_completion':
        this.refused = event.refused === true;
        return undefined;
      case 'approval_requested':
        this.ask(approvalAsk(event, this.taskweave.workspace));
        return undefined;
      case 'plan_proposed':
        // Asked only when the run waits for it (a plan mode that approves by itself does not).
        if (this.waitsFor(event.plan_id)) this.ask(planAsk(event));
        return undefined;
      case 'failure_decision_requested':
        this.ask(failureAsk(event));
        return undefined;
      case 'agent_request_input':
        if (this.ports.capabilities.elicitation?.form) {
          this.elicit(event.request_id, event.question);
          return undefined;
        }
        // No form to fill in: the question is the turn's last message, the next prompt its answer.
        await this.send(agentText(event.question));
        following.question = event.request_id;
        return 'end_turn';
      default:
        return undefined;
    }
  }

  private stopReason(status: string): StopReason {
    if (status === 'max_steps') return 'max_turn_requests';
    if (status === 'stopped') return this.cancelled ? 'cancelled' : 'end_turn';
    if (status === 'failed' && this.refused) return 'refusal';
    return 'end_turn';
  }

  private waitsFor(requestId: string): boolean {
    return this.taskweave.pending().some((request) => request.requestId === requestId);
  }

  /** Asks the editor without holding up the events (several tasks may ask at once). */
  private ask(permission: PermissionAsk): void {
    this.ports.client
      .request('session/request_permission', { sessionId: this.id, ...permission.params })
      .then((response) => this.taskweave.answer(permission.requestId, permission.answer(response.outcome)))
      .then((answered) => {
        // Answered elsewhere first, or timed out: the run went on without this answer.
        if (!answered.ok) this.ports.log(`permission ${permission.requestId}: ${answered.error}`);
      })
      .catch((error: unknown) =>
        this.ports.log(`permission ${permission.requestId}: ${(error as Error).message}`),
      );
  }

  private elicit(requestId: string, question: string): void {
    this.ports.client
      .request('elicitation/create', {
        mode: 'form',
        sessionId: this.id,
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { answer: { type: 'string', title: 'Answer' } },
          required: ['answer'],
        },
      })
      .then(async (response) => {
        const answer =
          response.action === 'accept'
            ? (response.content as { answer?: unknown } | null)?.answer
            : undefined;
        if (typeof answer === 'string')
          await this.taskweave.answer(requestId, { kind: 'input', content: answer });
      })
      .catch((error: unknown) => this.ports.log(`question ${requestId}: ${(error as Error).message}`));
  }

  private send(update: SessionUpdate): Promise<void> {
    return this.ports.client.notify('session/update', { sessionId: this.id, update });
  }
}

function agentText(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}
