import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runChecker } from '../../src/eval/checker.js';
import { loadOracle } from '../../src/eval/oracle.js';
import { loadScenario, SCENARIOS_DIR } from '../../src/eval/scenario.js';
import { prepareRunFolder, type RunFolder } from '../../src/eval/workspace.js';
import { applyOracle } from './oracle-state.js';

const names = readdirSync(SCENARIOS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const folders: RunFolder[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => folder.dispose()));
});

describe('scenario checkers against their oracles', () => {
  it('ships at least 8 scenarios', () => {
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  describe.concurrent.each(names)('%s', (name) => {
    it('fails the start state and passes the oracle end state', { timeout: 60_000 }, async () => {
      const scenario = await loadScenario(path.join(SCENARIOS_DIR, name));
      const folder = await prepareRunFolder({ scenario });
      folders.push(folder);
      const start = await runChecker(scenario, folder.workspace);
      expect(start.passed, start.reason).toBe(false);
      expect(start.reason).not.toBe('');
      await applyOracle(folder.workspace, await loadOracle(scenario));
      const end = await runChecker(scenario, folder.workspace);
      expect(end.passed, end.reason).toBe(true);
    });
  });
});
