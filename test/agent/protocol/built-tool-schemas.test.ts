import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  failTaskTool,
  finalAnswerTool,
  taskCompletedTool,
} from '../../../src/agent/orchestrator/control-tools.js';
import '../../../src/agent/orchestrator/plan-tool.js';
import '../../../src/agent/subagents/delegate-tool.js';
import {
  BUILT_SCHEMAS_FILE,
  builtToolSchemas,
  toolJsonSchema,
} from '../../../src/agent/protocol/model-tools.js';
import { todoTools } from '../../../src/agent/todo/todo-tools.js';
import { planTasksSchema } from '../../../src/plan/plan-schema.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { builtSchema, builtSchemaKey } from '../../../src/tools/built-schemas.js';
import { coreTools } from '../../../src/tools/registry.js';

/*
 * The build converts the tools' zod schemas to JSON Schema once (dist/bundle/tool-schemas.json),
 * and a run sends those instead of converting its tools at its start. They must be what the run
 * would have converted, and every tool a run always has must be among them.
 */

const BUILT = path.join(fileURLToPath(new URL('../../../dist/bundle', import.meta.url)), BUILT_SCHEMAS_FILE);

describe('built tool schemas', () => {
  it('registers the schema of every core, to-do, control and plan tool under its name', () => {
    const store = openSqliteStore({ path: ':memory:' });
    const tools = [
      ...coreTools,
      ...todoTools({ tasks: store.tasks, sessionId: 'ses_test' }),
      taskCompletedTool({ current: { id: 'a', title: 'A' }, planTaskIds: ['a'] }),
      failTaskTool(),
      finalAnswerTool(() => ({ accepted: true, message: 'ok' })),
    ];
    for (const tool of tools) expect(builtSchemaKey(tool.parameters), tool.name).toBe(tool.name);
    expect(builtSchemaKey(planTasksSchema)).toBe('plan_actions');
  });

  it('the build wrote each schema as a run converts it', () => {
    const written = JSON.parse(readFileSync(BUILT, 'utf8')) as Record<string, unknown>;
    const converted = builtToolSchemas();
    expect(Object.keys(written).sort()).toEqual(Object.keys(converted).sort());
    for (const [key, schema] of Object.entries(converted)) expect(written[key], key).toEqual(schema);
    expect(written.read_file).toEqual(toolJsonSchema(coreTools.find((tool) => tool.name === 'read_file')!));
  });

  it('refuses a second schema under a key (a schema made per call is not a module constant)', () => {
    const once = z.object({ x: z.string() });
    expect(builtSchema('test_tool', once)).toBe(once);
    expect(builtSchema('test_tool', once)).toBe(once);
    expect(() => builtSchema('test_tool', z.object({ x: z.string() }))).toThrow(/module's constant/);
  });
});
