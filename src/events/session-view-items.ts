import type { SessionView, TimelineItem, TokenCount } from './session-view-types.js';

/** Two counts added up; the cost is there when either has one (a made-up cost never is). */
export function addTokens(a: TokenCount, b: TokenCount): TokenCount {
  const sum = { input: a.input + b.input, output: a.output + b.output };
  return a.cost === undefined && b.cost === undefined ? sum : { ...sum, cost: (a.cost ?? 0) + (b.cost ?? 0) };
}

/** Appends an item, or replaces the item with the same id (a replayed run keeps one of each). */
export function append(view: SessionView, item: TimelineItem): SessionView {
  const at = view.items.findIndex((existing) => existing.id === item.id);
  if (at === -1) return { ...view, items: [...view.items, item] };
  const items = view.items.slice();
  items[at] = item;
  return { ...view, items };
}

/** Maps every item; the view is returned unchanged when no item changed. */
export function updateItems(view: SessionView, update: (item: TimelineItem) => TimelineItem): SessionView {
  let changed = false;
  const items = view.items.map((item) => {
    const updated = update(item);
    if (updated !== item) changed = true;
    return updated;
  });
  return changed ? { ...view, items } : view;
}

/** Marks the run's failure decisions as behind it. */
export function settleFailures(view: SessionView, runId: string): SessionView {
  return updateItems(view, (item) =>
    item.kind === 'failure' && item.runId === runId && !item.settled ? { ...item, settled: true } : item,
  );
}

/** Settles the approvals of a run still waiting when it ended (nothing will answer them now). */
export function settleApprovals(view: SessionView, runId: string): SessionView {
  return updateItems(view, (item) =>
    item.kind === 'approval' && item.runId === runId && !item.settled ? { ...item, settled: true } : item,
  );
}

/** Settles the approval of a tool call once the call has a result (it ran, or was refused). */
export function settleApprovalOf(view: SessionView, callId: string, outcome: string): SessionView {
  return updateItems(view, (item) =>
    item.kind === 'approval' && item.callId === callId && !item.settled
      ? { ...item, settled: true, outcome }
      : item,
  );
}
