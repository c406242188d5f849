import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { is, startServer, TestClient } from './helpers.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** A model that tries to write a file, then answers. */
const WRITES_THEN_ANSWERS = [
  { toolCalls: [{ name: 'write_file', args: { path: 'made.txt', content: 'made\n' } }] },
  { text: 'Here is my answer.' },
];

describe("the seed's chat message shape over the WebSocket", () => {
  it('agent_mode: true runs the agent (as auto), with agent_max_steps', async () => {
    const target = await startServer(WRITES_THEN_ANSWERS);
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'make the file', agent_mode: true, agent_max_steps: 10 });
    expect(await client.next(is('agent_start'))).toMatchObject({ max_steps: 10, goal: 'make the file' });
    expect(await client.next(is('response_complete'))).toMatchObject({
      status: 'completed',
      final_answer: 'Here is my answer.',
    });
    expect(await exists(path.join(target.runtime.workspace.root, 'made.txt'))).toBe(true);
    expect(client.messages.filter((message) => message.type === 'error')).toEqual([]);
  });

  it('agent_mode: false is a plain chat turn: the model is offered no tool, nothing is written', async () => {
    const target = await startServer(WRITES_THEN_ANSWERS);
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'just talk', agent_mode: false, agent_max_steps: 10 });
    await client.next(is('chat_accepted'));
    const done = await client.next(is('response_complete'));
    expect(done).toMatchObject({ status: 'completed', final_answer: 'Here is my answer.' });
    expect(await exists(path.join(target.runtime.workspace.root, 'made.txt'))).toBe(false);
    expect(client.messages.filter((message) => message.type === 'error')).toEqual([]);
    const refused = client.messages.find((message) => message.type === 'tool_error');
    expect(refused).toMatchObject({ name: 'write_file' });
  });

  it('a mode name still works, and anything else is a clear error', async () => {
    const target = await startServer([{ text: 'Simple.' }]);
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'do it simply', agent_mode: 'simple' });
    expect(await client.next(is('response_complete'))).toMatchObject({ final_answer: 'Simple.' });
    client.send({ type: 'chat', content: 'what', agent_mode: 'yes' });
    const error = await client.next(is('error'));
    expect(error).toMatchObject({ code: 'invalid_message' });
    expect((error as { message: string }).message).toMatch(/agent_mode/);
  });
});
