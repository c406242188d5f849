import { describe, expect, it } from 'vitest';
import { api, is, startServer, TestClient } from './helpers.js';

const POSTGRES = process.env.TASKWEAVE_TEST_POSTGRES;
const BACKENDS: { name: string; store?: string }[] = [
  { name: 'SQLite' },
  ...(POSTGRES ? [{ name: 'PostgreSQL', store: POSTGRES }] : []),
];

describe.each(BACKENDS)('a NUL character in a goal ($name)', ({ store }) => {
  it('is refused at the edge with a clear 400 (REST) and error (WebSocket); nothing is stored', async () => {
    const target = await startServer([], store === undefined ? {} : { store });
    // A marker only this test's rows carry, so that a shared server's other rows do not count.
    const marker = `nul-${process.pid}-${Date.now()}`;
    const stored = async () => {
      const tasks = (await target.runtime.tasks.tree()).filter(
        (task) => task.description.includes(marker) || task.title.includes(marker),
      );
      const sessions = (await target.runtime.sessions.list({ limit: 1000 })).filter(({ session }) =>
        session.goal.includes(marker),
      );
      return { tasks: tasks.length, sessions: sessions.length };
    };

    const rest = await api(target, 'POST', '/api/tasks', { body: { description: `${marker} a\u0000b` } });
    expect(rest.status).toBe(400);
    expect(rest.body.error.code).toBe('bad_input');
    expect(rest.body.error.message).toMatch(/description: the description contains a NUL character/);
    expect(rest.body.error.message).not.toMatch(/insert|select|query|sql/i);

    const titled = await api(target, 'POST', '/api/tasks', {
      body: { description: `${marker} fine`, title: `${marker}\u0000` },
    });
    expect(titled.status).toBe(400);
    expect(titled.body.error.message).toMatch(/title: the title contains a NUL character/);

    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: `${marker} write a\u0000b.txt` });
    const error = await client.next(is('error'));
    expect(error).toMatchObject({ code: 'invalid_message' });
    expect(error.type === 'error' && error.message).toMatch(/the goal contains a NUL character/);
    expect(error.type === 'error' && error.message).not.toMatch(/insert|select|query|sql/i);

    // The runtime refuses it too, for a front end that does not validate (a piped CLI goal).
    await expect(target.runtime.submit(`${marker} a\u0000b`)).rejects.toThrow(
      /^The goal contains a NUL character \(\\0\), which taskweave cannot store/,
    );
    await expect(target.runtime.tasks.add({ description: `${marker}\u0000` })).rejects.toThrow(
      /^The description contains a NUL character/,
    );
    expect(await stored()).toEqual({ tasks: 0, sessions: 0 });
  });
});
