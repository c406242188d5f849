import { describe, expect, it } from 'vitest';
import { sessionExportSchema } from '../../src/export/export-schema.js';
import { api, is, startServer, TestClient } from './helpers.js';

const PLAN = {
  toolCalls: [
    {
      name: 'plan_actions',
      args: { tasks: [{ id: 'a', title: 'Write a.txt', description: 'Write a.txt', depends_on: [] }] },
    },
  ],
};
const WRITE = {
  task: 'a',
  toolCalls: [
    { name: 'write_file', args: { path: 'a.txt', content: '<script>alert(1)</script>\n' } },
    { name: 'task_completed', args: { summary: 'wrote a.txt' } },
  ],
};
const FINAL = { toolCalls: [{ name: 'final_answer', args: { answer: 'Written.' } }] };

describe('GET /api/sessions/:id/export', () => {
  it('downloads a session as html, md or json with the token; refuses without it, for a wrong id and a wrong format', async () => {
    const target = await startServer([PLAN, WRITE, FINAL], {
      policy: { input: 'ask', plan: 'approve', failure: 'ask' },
    });
    const client = await TestClient.open(target);
    client.send({ type: 'chat', content: 'write a.txt' });
    const sessionId = (await client.next(is('response_complete'))).session_id;
    const path = `/api/sessions/${sessionId}/export`;

    const html = await api(target, 'GET', `${path}?format=html`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-disposition')).toBe(
      `attachment; filename="taskweave-${sessionId}.html"`,
    );
    expect(html.body).toContain('<h2>Plan</h2>');
    expect(html.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.body).not.toContain('<script>');

    const markdown = await api(target, 'GET', path);
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.body).toMatch(/^# write a\.txt\n/);
    expect(markdown.body).toContain('### Final answer\n\nWritten.');

    const json = await api(target, 'GET', `/api/sessions/${sessionId.slice(0, 10)}/export?format=json`);
    expect(json.status).toBe(200);
    const document = sessionExportSchema.parse(json.body);
    expect(document.plans[0]?.tasks).toMatchObject([{ id: 'a', state: 'completed', summary: 'wrote a.txt' }]);

    expect((await api(target, 'GET', path, { token: null })).status).toBe(401);
    const unknown = await api(target, 'GET', '/api/sessions/ses_nothere/export');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const format = await api(target, 'GET', `${path}?format=pdf`);
    expect(format.status).toBe(400);
    expect(format.body.error).toMatchObject({
      code: 'bad_input',
      message: expect.stringContaining('format'),
    });
  });
});
