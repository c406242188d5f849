import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../src/app.js';

test('GET /todos/:id returns the todo', async () => {
  const app = buildApp();
  const response = await app.inject({ method: 'GET', url: '/todos/2' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.json().title, 'Review the login page');
  await app.close();
});

test('GET /todos/:id is 404 for an unknown id', async () => {
  const app = buildApp();
  const response = await app.inject({ method: 'GET', url: '/todos/99' });
  assert.equal(response.statusCode, 404);
  assert.deepEqual(response.json(), { error: 'not found' });
  await app.close();
});
