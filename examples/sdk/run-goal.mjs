// The SDK in a few lines: open a workspace, run a goal, read its typed events as they come,
// answer the approvals it asks for, print how it ended.
//
//   node examples/sdk/run-goal.mjs <workspace> "<goal>" [--model script:examples/sdk/run-goal.script.json]
//
// In a project that installed taskweave, `import { open } from 'taskweave'` is all it takes.
import path from 'node:path';
import { open } from 'taskweave';

const [workspace = process.cwd(), goal = 'write hello.txt', ...rest] = process.argv.slice(2);
const modelFlag = rest.indexOf('--model');
// A script's path as typed here (the model's own resolve against the workspace).
const model = rest[modelFlag + 1]?.replace(/^script:(.*)$/, (_, file) => `script:${path.resolve(file)}`);
const taskweave = await open({
  cwd: workspace,
  ...(modelFlag === -1 ? {} : { model }),
  approval: 'ask',
});

try {
  const run = taskweave.run(goal);
  const { sessionId } = await run.started;
  console.log(`session ${sessionId}`);
  for await (const event of run) {
    if (event.type === 'tool_start') console.log(`tool ${event.name} ${JSON.stringify(event.args)}`);
    else if (event.type === 'tool_complete') console.log(`  done: ${event.result.split('\n')[0]}`);
    else if (event.type === 'agent_update' && event.update_type === 'agent_text_delta')
      process.stdout.write(event.content);
    else if (event.type === 'agent_update' && event.update_type === 'approval_requested') {
      // File changes are allowed, anything else refused: a program decides as a person would.
      const decision = event.name === 'write_file' || event.name === 'edit_file' ? 'allow' : 'deny';
      console.log(`approval ${event.name}: ${decision}`);
      await taskweave.answer(event.request_id, { kind: 'approval', decision });
    }
  }
  const result = await run.result;
  console.log(`\nstatus ${result.status}`);
  process.exitCode = result.status === 'completed' ? 0 : 1;
} finally {
  await taskweave.close();
}
