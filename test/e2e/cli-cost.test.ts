import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, tableRows, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** The fixed price of the tests' script model, in US dollars per million tokens. */
const PRICE = { input: 10, output: 40 };

/** Three steps that each write a file, then the answer. */
const THREE_FILES = {
  turns: [
    { text: 'one', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
    { text: 'two', toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b\n' } }] },
    { text: 'three', toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c\n' } }] },
    { text: 'Wrote three files.' },
  ],
};

/**
 * A workspace and a script model; with `priced`, the workspace config gives the script model
 * (its id is its file's path) the fixed price. HOME points into the temp folder: no user config.
 */
async function setup(options: { priced: boolean; config?: Record<string, unknown>; script?: unknown }) {
  const workspace = await tempWorkspaceRoot('taskweave-cost-');
  const scripts = await tempWorkspaceRoot('taskweave-cost-script-');
  const scriptPath = await writeScript(scripts, options.script ?? THREE_FILES);
  const model = `script:${scriptPath}`;
  await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
  await writeFile(
    path.join(workspace, '.taskweave', 'config.json'),
    JSON.stringify({ ...(options.priced ? { prices: { [model]: PRICE } } : {}), ...options.config }),
  );
  const env = { HOME: scripts, XDG_CONFIG_HOME: path.join(scripts, '.config'), TASKWEAVE_MODEL: '' };
  const cli = (args: string[]) => runCli([...args, '--cwd', workspace], { env });
  return { workspace, model, cli };
}

const run = (model: string, ...more: string[]) => ['run', '--approval', 'auto', '--model', model, ...more];

function usageEvents(events: ServerEvent[]) {
  return events.filter(
    (event): event is Extract<ServerEvent, { update_type: 'model_usage' }> =>
      event.type === 'agent_update' && event.update_type === 'model_usage',
  );
}

describe('cost (CLI, a script model priced by the config)', { timeout: 60_000 }, () => {
  it('prices every call against the configured table: model_usage and agent_completion carry cost; the last line shows it', async () => {
    const { model, cli } = await setup({ priced: true });
    const json = await cli(run(model, '--json', 'write three files'));
    expect(json.code, json.stderr).toBe(0);
    const events = parseJsonLines(json.stdout);
    const usages = usageEvents(events);
    expect(usages).toHaveLength(4);
    for (const usage of usages)
      expect(usage.cost).toBeCloseTo(
        (usage.input_tokens * PRICE.input + usage.output_tokens * PRICE.output) / 1e6,
        12,
      );
    const completion = events.find(
      (event) => event.type === 'agent_update' && event.update_type === 'agent_completion',
    );
    const total = usages.reduce((sum, usage) => sum + (usage.cost ?? 0), 0);
    expect(completion).toMatchObject({ status: 'completed', cost: expect.closeTo(total, 12) });

    const text = await cli(run(model, 'write three files again'));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/✓ completed · 4 steps · \d+ in \/ \d+ out tokens · \$0\.\d{2,4}\n$/);

    // The runs are recorded with their cost: sessions list has the column, and so does --json.
    const list = await cli(['sessions', 'list']);
    expect(list.stdout.split('\n')[0]).toMatch(/runs\s+tokens\s+cost$/);
    for (const row of tableRows(list.stdout)) expect(row.at(-1)).toMatch(/^\$0\.\d{2,4}$/);
    const sessions = JSON.parse((await cli(['sessions', 'list', '--json'])).stdout);
    expect(sessions[1].cost).toBeCloseTo(total, 10);

    // sessions show: each run with its cost, in the table and in --json.
    expect((await cli(['sessions', 'show', 'last'])).stdout).toMatch(
      /^ {2}1\. run_\S+ +completed +simple +4 steps +\d+ in \/ \d+ out tokens +\$0\.\d{2,4} +started/m,
    );
    const shown = JSON.parse((await cli(['sessions', 'show', sessions[1].id, '--json'])).stdout);
    expect(shown.runs[0].cost).toBeCloseTo(total, 12);

    // Per day: today's row and the total add up both runs.
    const cost = JSON.parse((await cli(['cost', '--json'])).stdout);
    expect(cost.days).toHaveLength(1);
    expect(cost.total.runs).toBe(2);
    expect(cost.total.cost).toBeCloseTo(sessions[0].cost + sessions[1].cost, 10);
    expect(cost.total.unpriced_runs).toBe(0);
    const table = await cli(['cost', '--days', '1']);
    expect(table.stdout).toMatch(/^day\s+runs\s+tokens in\s+tokens out\s+cost$/m);
    expect(table.stdout).toMatch(/^total, today\s+2\s+.*\$0\.\d{2,4}$/m);
  });

  it('a model without a price shows tokens only: no cost in any event, on the last line or in the lists', async () => {
    const { model, cli } = await setup({ priced: false });
    const json = await cli(run(model, '--json', 'write three files'));
    expect(json.code, json.stderr).toBe(0);
    expect(usageEvents(parseJsonLines(json.stdout)).length).toBe(4);
    expect(json.stdout).not.toContain('"cost"');
    const text = await cli(run(model, 'write them again'));
    expect(text.stdout).toMatch(/✓ completed · 4 steps · \d+ in \/ \d+ out tokens\n$/);
    expect(text.stdout).not.toContain('$');
    for (const row of tableRows((await cli(['sessions', 'list'])).stdout)) expect(row.at(-1)).toBe('—');
    const cost = await cli(['cost']);
    expect(cost.stdout).toMatch(/^total, the last 7 days\s+2\s+.*—$/m);
    expect(cost.stdout).toContain('2 runs used a model with no price: tokens only');
  });
});

describe('the budget (CLI)', { timeout: 60_000 }, () => {
  it('--budget stops the run at the step boundary after the session passed it: named reason, exit 3, no later step', async () => {
    const { workspace, model, cli } = await setup({ priced: true });
    // Each step of this script costs about $0.025 at the price: the second one passes $0.03.
    const json = await cli(run(model, '--budget', '0.03', '--json', 'write three files'));
    expect(json.code, json.stderr).toBe(3);
    const events = parseJsonLines(json.stdout);
    const updates = events.flatMap((event) => (event.type === 'agent_update' ? [event] : []));
    const exceeded = updates.find((event) => event.update_type === 'budget_exceeded');
    expect(exceeded).toMatchObject({ step: 2, budget: 0.03 });
    const usages = usageEvents(events);
    const spent = usages.reduce((sum, usage) => sum + (usage.cost ?? 0), 0);
    expect(usages).toHaveLength(2);
    expect(exceeded && 'spent' in exceeded ? exceeded.spent : 0).toBeCloseTo(spent, 12);
    expect(usages[0]?.cost).toBeLessThan(0.03);
    expect(spent).toBeGreaterThanOrEqual(0.03);
    // The step under way finished (b.txt written); no third step started.
    expect(updates.filter((event) => event.update_type === 'agent_turn_start')).toHaveLength(2);
    expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('b\n');
    await expect(readFile(path.join(workspace, 'c.txt'), 'utf8')).rejects.toThrow();
    expect(updates.find((event) => event.update_type === 'agent_completion')).toMatchObject({
      status: 'stopped',
      reason: expect.stringMatching(/^Budget exceeded: the session spent \$0\.0\d+ of its \$0\.03 budget\.$/),
    });

    // On the terminal: the line that says why, the closing line, then how to continue (a stopped
    // goal is resumable), with the options the run was given.
    const again = await setup({ priced: true });
    const text = await again.cli(run(again.model, '--budget', '0.03', 'write three files'));
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(
      /■ budget exceeded: \$0\.0\d+ spent of the session's \$0\.03; the run stops here\n■ stopped: budget exceeded · 2 steps · \d+ in \/ \d+ out tokens · \$0\.0\d+\nTo continue: taskweave resume ses_\w+ .*--budget 0\.03.*\n$/,
    );
  });

  it('stops the parallel tasks of a plan alike: the budget is announced once and no later task starts', async () => {
    const task = (id: string, after: string[] = []) => ({
      id,
      title: `Task ${id}`,
      description: id,
      depends_on: after,
    });
    const { workspace, model, cli } = await setup({
      priced: true,
      script: {
        turns: [
          {
            text: 'Planned.',
            toolCalls: [
              {
                name: 'plan_actions',
                args: { tasks: [task('api'), task('ui'), task('docs', ['api', 'ui'])] },
              },
            ],
          },
          {
            task: 'api',
            latencyMs: 200,
            toolCalls: [{ name: 'write_file', args: { path: 'api.txt', content: 'a\n' } }],
          },
          { task: 'api', toolCalls: [{ name: 'task_completed', args: { summary: 'api done' } }] },
          {
            task: 'ui',
            latencyMs: 200,
            toolCalls: [{ name: 'write_file', args: { path: 'ui.txt', content: 'u\n' } }],
          },
          { task: 'ui', toolCalls: [{ name: 'task_completed', args: { summary: 'ui done' } }] },
          { task: 'docs', toolCalls: [{ name: 'task_completed', args: { summary: 'docs done' } }] },
          { text: 'All done.' },
        ],
      },
    });
    // The plan step costs about $0.025 and each task's step about $0.022: the first task step to
    // end passes $0.04, while the other task's step (started with it) is still under way.
    const json = await cli(run(model, '--yes', '--budget', '0.04', '--json', 'build it'));
    expect(json.code, json.stderr).toBe(3);
    const updates = parseJsonLines(json.stdout).flatMap((event) =>
      event.type === 'agent_update' ? [event] : [],
    );
    expect(updates.filter((event) => event.update_type === 'budget_exceeded')).toHaveLength(1);
    expect(updates.filter((event) => event.update_type === 'agent_turn_start')).toHaveLength(3);
    expect(updates.some((event) => event.update_type === 'task_started' && event.task_id === 'docs')).toBe(
      false,
    );
    expect(updates.some((event) => event.update_type === 'task_completed')).toBe(false);
    expect(updates.find((event) => event.update_type === 'agent_completion')).toMatchObject({
      status: 'stopped',
    });
    // The steps under way finished their tool calls.
    expect(await readFile(path.join(workspace, 'api.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(path.join(workspace, 'ui.txt'), 'utf8')).toBe('u\n');
  });

  it("the config's budget.session counts the session's earlier runs: a continued session stops sooner", async () => {
    const { model, cli } = await setup({
      priced: true,
      config: { budget: { session: 0.04 } },
      script: {
        // Each process replays the script afresh: the second goal's turns come first, as its
        // prompt (the session's history) names the first goal too.
        turns: [
          { when: 'second', toolCalls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x\n' } }] },
          { when: 'second', text: 'Second answer.' },
          { when: 'first', text: 'First answer.' },
        ],
      },
    });
    const first = await cli(run(model, '--json', 'first goal'));
    expect(first.code, first.stderr).toBe(0);
    const firstCost = usageEvents(parseJsonLines(first.stdout))[0]?.cost ?? 0;
    expect(firstCost).toBeLessThan(0.04);
    // Alone, the second goal's first step would stay under the budget; with the first run's cost it passes it.
    const second = await cli(run(model, '--resume', 'last', '--json', 'second goal'));
    expect(second.code, second.stderr).toBe(3);
    const events = parseJsonLines(second.stdout);
    const secondCost = usageEvents(events)[0]?.cost ?? 0;
    expect(secondCost).toBeLessThan(0.04);
    expect(
      events.find((event) => event.type === 'agent_update' && event.update_type === 'budget_exceeded'),
    ).toMatchObject({
      spent: expect.closeTo(firstCost + secondCost, 12),
      budget: 0.04,
    });
  });

  it('a budget for a model without a price is not applied, and the run says so; a bad --budget is a usage error', async () => {
    const { model, cli } = await setup({ priced: false });
    const text = await cli(run(model, '--budget', '0.01', 'write three files'));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `! The budget of $0.01 is not applied: ${model} has no price (give it one in the config's "prices").`,
    );
    const bad = await cli(run(model, '--budget', 'lots', 'x'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected an amount of US dollars above zero');
  });
});
