import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { addStoreOptions } from '../options.js';
import { parsePositiveInt } from '../usage-error.js';
import type { CostOptions } from './cost-action.js';

/** The days `taskweave cost` adds up when --days is not given (this one and the six before). */
export const DEFAULT_COST_DAYS = 7;

/** Adds `taskweave cost`: tokens and money of this workspace's runs, per day. */
export function addCostCommand(program: Command, setExitCode: (code: number) => void): void {
  addStoreOptions(
    program
      .command('cost')
      .description("tokens and money this workspace's runs used, per day (local time), with the total")
      .option(
        '-d, --days <n>',
        `the days to add up, today included (default ${DEFAULT_COST_DAYS})`,
        parsePositiveInt,
      )
      .option('--json', 'print a JSON object: the days and the total'),
  ).action(async (options: CostOptions) => {
    const { showCost } = await import('./cost-action.js');
    const access = await import('./workspace-access.js');
    // Only reads: a write-protected database or folder still works.
    await access.withWorkspace(options, { readOnly: true }, (workspace) =>
      showCost(workspace, { ...options, days: options.days ?? DEFAULT_COST_DAYS }),
    );
    setExitCode(EXIT.completed);
  });
}
