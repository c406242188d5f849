import { useEffect, useMemo, useRef, useState } from 'react';
import {
  currentPlan,
  isRunning,
  itemsOfTask,
  latestRun,
  openApprovals,
  openFailure,
  openQuestion,
  planAwaitingDecision,
  sessionHeading,
} from '../../../src/events/session-view-select.js';
import { BackgroundPanel } from '../background/background-panel.js';
import { ApprovalRequest } from '../chat/approval-request.js';
import { Composer } from '../chat/composer.js';
import { FailureDecision } from '../chat/failure-decision.js';
import { countTasks, formatUsage } from '../chat/format.js';
import { QuestionBanner } from '../chat/question-banner.js';
import { Timeline } from '../chat/timeline.js';
import { useAutoScroll } from '../chat/use-auto-scroll.js';
import {
  CheckpointsContext,
  type CheckpointsState,
  useCheckpoints,
} from '../checkpoints/checkpoints-context.js';
import type { RunControls } from '../connection/session-store.js';
import { ExportMenu } from '../export/export-menu.js';
import { PlanPanel } from '../plan/plan-panel.js';
import { useHealth, useStore } from './store-context.js';
import { useAttention } from './use-attention.js';
import { sessionHref } from './use-route.js';

const FALLBACK_CONTROLS: RunControls = { maxSteps: 50, loop: 'react', plan: 'auto' };

/** A session: the conversation, what waits for the user, the plan graph, and the input with its controls. */
export function SessionPage({ sessionId }: { sessionId: string | undefined }) {
  const [state, store] = useStore();
  const health = useHealth();
  const [controls, setControls] = useState<RunControls>();
  const [taskFilter, setTaskFilter] = useState<string>();
  const [startingGoal, setStartingGoal] = useState<string>();
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (sessionId) store.watch(sessionId);
    setTaskFilter(undefined);
  }, [sessionId, store]);
  const shownControls =
    controls ??
    (health
      ? { maxSteps: health.defaults.max_steps, loop: health.defaults.loop, plan: health.defaults.plan }
      : FALLBACK_CONTROLS);

  const view = sessionId ? state.views[sessionId] : undefined;
  const running = view ? isRunning(view) : false;
  const question = view && openQuestion(view);
  const failure = view && openFailure(view);
  const approval = view && openApprovals(view)[0];
  const plan = view && currentPlan(view);
  const awaiting = view && planAwaitingDecision(view);
  const queuedBehind = sessionId ? state.queued[sessionId] : undefined;
  const items = useMemo(
    () => (view ? (taskFilter ? itemsOfTask(view, taskFilter) : view.items) : []),
    [view, taskFilter],
  );
  const { away, toBottom } = useAutoScroll(scroller, items);

  useAttention(
    question
      ? { key: question.requestId, title: 'taskweave asks you', body: question.question }
      : approval
        ? {
            key: approval.requestId,
            title: 'Approve a tool call?',
            body: approval.preview.split('\n')[0] ?? '',
          }
        : failure
          ? { key: failure.requestId, title: 'A task failed', body: `${failure.title}: ${failure.reason}` }
          : awaiting
            ? {
                key: awaiting.planId,
                title: 'A plan waits for approval',
                body: countTasks(awaiting.tasks.length),
              }
            : undefined,
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !sessionId || !view || !isRunning(view)) return;
      if (
        view.runningTools > 0 &&
        !window.confirm('A tool is running. Stop the run at the next phase boundary?')
      )
        return;
      store.stop(sessionId);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sessionId, view, store]);

  const send = (content: string, images: string[]) => {
    toBottom();
    if (sessionId) {
      store.chat({ content, images, sessionId, controls: shownControls });
      return;
    }
    setStartingGoal(content);
    store.chat({
      content,
      images,
      controls: shownControls,
      onSession: (id) => {
        setStartingGoal(undefined);
        window.location.hash = sessionHref(id);
      },
    });
  };

  const run = view && latestRun(view);
  const checkpoints = useCheckpoints(sessionId, view);
  const checkpointsState = useMemo<CheckpointsState | null>(
    () =>
      sessionId
        ? {
            sessionId,
            checkpoints,
            running,
            restore: (action, options) => store.restore(sessionId, action, options),
          }
        : null,
    [sessionId, checkpoints, running, store],
  );
  return (
    <CheckpointsContext.Provider value={checkpointsState}>
      <div className={`session-page${plan ? ' with-plan' : ''}`}>
        <section className={`chat${question || approval || failure ? ' waits' : ''}`} aria-label="Session">
          <header className="session-header">
            {sessionId && view && view.runs.length > 0 && <ExportMenu sessionId={sessionId} />}
            <h1>{(view && sessionHeading(view)) ?? (sessionId ? 'Session' : 'New session')}</h1>
            <p className="muted small">
              {run && `${run.model} · ${run.loop} · up to ${run.maxSteps} steps · `}
              {view && <span className="session-usage">{formatUsage(view.usage)}</span>}
              {running && <span className="state-chip state-in_progress"> running</span>}
              {queuedBehind !== undefined && queuedBehind > 0 && (
                <span className="state-chip state-pending"> queued behind {queuedBehind}</span>
              )}
            </p>
          </header>
          {/* The pill sits in the conversation's own corner, above whatever waits below it. */}
          <div className="scroll-area">
            <div className="scroller" ref={scroller}>
              {view && <Timeline view={view} items={items} />}
              {!sessionId && startingGoal && <div className="goal">{startingGoal}</div>}
              {!sessionId && !startingGoal && (
                <p className="muted empty">Give taskweave a goal; every step will show here as it happens.</p>
              )}
            </div>
            {away && (
              <button type="button" className="to-bottom" onClick={toBottom}>
                ↓ Latest
              </button>
            )}
          </div>
          {sessionId && view && (
            <BackgroundPanel
              commands={view.background}
              onStop={(id) =>
                store.send({ type: 'stop_background_command', session_id: sessionId, command_id: id })
              }
            />
          )}
          {question && (
            <QuestionBanner
              key={question.requestId}
              question={question}
              onAnswer={(content) => store.answer(question.requestId, content)}
            />
          )}
          {approval && (
            <ApprovalRequest
              key={approval.requestId}
              approval={approval}
              onDecide={(decision, reason) => store.decideApproval(approval.requestId, decision, reason)}
            />
          )}
          {failure && (
            <FailureDecision
              key={failure.requestId}
              failure={failure}
              onDecide={(decision, feedback) => store.decideFailure(failure.requestId, decision, feedback)}
            />
          )}
          <Composer
            running={running}
            controls={shownControls}
            onControls={setControls}
            onSend={send}
            onStop={() => sessionId && store.stop(sessionId)}
            continuing={sessionId !== undefined}
          />
        </section>
        {plan && (
          <PlanPanel
            key={plan.planId}
            plan={plan}
            awaitingDecision={awaiting !== undefined}
            conversationWaits={Boolean(question || approval || failure)}
            selectedTask={taskFilter}
            onSelectTask={setTaskFilter}
            onDecide={(decision, feedback) => store.decidePlan(plan.planId, decision, feedback)}
          />
        )}
      </div>
    </CheckpointsContext.Provider>
  );
}
