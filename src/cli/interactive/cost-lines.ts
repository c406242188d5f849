import { formatDollars } from '../../events/usage-text.js';
import { plural } from '../render/text-wrap.js';
import type { SessionState } from './slash-command-types.js';

const numbers = new Intl.NumberFormat('en');

/**
 * What `/cost` says: the session's runs, tokens and cost (from the store, so a continued
 * session counts its earlier runs too), today's total in this workspace, and the budget. A
 * model with no price shows its tokens only, and says how to give it one.
 */
export async function costLines(state: SessionState): Promise<string> {
  const { runtime, style } = state;
  const lines: string[] = [];
  const price = runtime.price;
  const summary = state.sessionId ? await runtime.sessions.summary(state.sessionId) : undefined;
  if (summary === undefined || summary.runCount === 0) {
    lines.push('No tokens used in this session yet.');
  } else {
    const cost = summary.cost === null ? '' : `, ${formatDollars(summary.cost)}`;
    lines.push(
      `This session: ${plural(summary.runCount, 'run')}, ${numbers.format(summary.inputTokens)} in / ${numbers.format(summary.outputTokens)} out tokens${cost}.`,
    );
  }
  const startOfToday = new Date();
  startOfToday.setHours(0, 0, 0, 0);
  const [today] = await runtime.sessions.usageByDay(startOfToday.getTime());
  if (today !== undefined) {
    const cost = today.cost === null ? 'tokens only' : formatDollars(today.cost);
    lines.push(`Today in this workspace: ${plural(today.runs, 'run')}, ${cost}.`);
  }
  const budget = runtime.settings.budget;
  if (budget !== undefined) {
    lines.push(
      price === undefined
        ? style.yellow(
            `Budget ${formatDollars(budget)} a session: not applied, ${runtime.model.id} has no price.`,
          )
        : `Budget: ${formatDollars(summary?.cost ?? 0)} of ${formatDollars(budget)} spent in this session.`,
    );
  }
  if (price === undefined)
    lines.push(
      style.dim(`${runtime.model.id} has no price: tokens only (give it one in the config's "prices").`),
    );
  else
    lines.push(
      style.dim(`${runtime.model.id}: $${price.input} in / $${price.output} out per million tokens.`),
    );
  return lines.join('\n');
}
