import { describe, expectTypeOf, it } from 'vitest';
import {
  type AgentUpdateOf,
  type GoalResult,
  type GoalRun,
  type GoalStart,
  open,
  type RequestAnswer,
  type ServerEvent,
  type SessionSummary,
  type Taskweave,
} from '../../src/index.js';

/*
 * Type tests of the SDK's face (`import … from 'taskweave'`): checked by `npm run typecheck`
 * (tsc reads test/) and by `vitest --typecheck.only test/sdk`.
 */

describe('the SDK face', () => {
  it('open takes a workspace and resolves to a Taskweave', () => {
    expectTypeOf(open).parameter(0).toHaveProperty('cwd').toEqualTypeOf<string>();
    expectTypeOf(open).returns.resolves.toEqualTypeOf<Taskweave>();
    // @ts-expect-error the workspace is required
    void open({});
    // @ts-expect-error approval modes are a closed set
    void open({ cwd: '.', approval: 'yolo' });
  });

  it('run gives an async iterable of the protocol events, its start and its result', () => {
    expectTypeOf<Taskweave['run']>().returns.toEqualTypeOf<GoalRun>();
    expectTypeOf<GoalRun>().toMatchTypeOf<AsyncIterable<ServerEvent>>();
    expectTypeOf<GoalRun['started']>().resolves.toEqualTypeOf<GoalStart>();
    expectTypeOf<GoalRun['result']>().resolves.toEqualTypeOf<GoalResult>();
    expectTypeOf<GoalResult['status']>().toEqualTypeOf<
      'completed' | 'stopped' | 'max_steps' | 'failed' | 'needs_input'
    >();
  });

  it('events narrow by type and update_type to their fields', () => {
    const narrow = (event: ServerEvent) => {
      if (event.type === 'tool_start') expectTypeOf(event.call_id).toEqualTypeOf<string>();
      if (event.type === 'agent_update' && event.update_type === 'approval_requested')
        expectTypeOf(event).toMatchTypeOf<AgentUpdateOf<'approval_requested'>>();
      if (event.type === 'response_complete') {
        // @ts-expect-error a completion has no call id
        void event.call_id;
      }
    };
    void narrow;
  });

  it('answer takes one of the four answers; stop and the books are typed', () => {
    expectTypeOf<Taskweave['answer']>().parameter(1).toEqualTypeOf<RequestAnswer>();
    const bad: RequestAnswer = {
      kind: 'approval',
      // @ts-expect-error an approval is allow, deny or always
      decision: 'maybe',
    };
    void bad;
    expectTypeOf<Taskweave['stop']>().returns.resolves.toEqualTypeOf<boolean>();
    expectTypeOf<Taskweave['sessions']['list']>().returns.resolves.toEqualTypeOf<SessionSummary[]>();
    expectTypeOf<Taskweave['sessions']['create']>().returns.resolves.toEqualTypeOf<string>();
  });
});
