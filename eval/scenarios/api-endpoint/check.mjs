// api-endpoint: the service finds todos, the endpoint serves them (404 otherwise), a test for
// the endpoint exists, and the whole suite passes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fail, pass, read, testsMustPass } from '../../lib/check.mjs';

const load = async (file) => {
  if (!existsSync(file)) fail(`${file} does not exist`);
  try {
    return await import(pathToFileURL(path.resolve(file)).href);
  } catch (error) {
    return fail(`${file} does not load: ${error.message}`);
  }
};
const { TodoService } = await load('src/services/todo-service.js');
if (typeof TodoService !== 'function')
  fail('src/services/todo-service.js does not export a class TodoService');
const service = new TodoService();
if (service.findById?.(3)?.title !== 'Plan the next sprint')
  fail('TodoService.findById(3) does not return todo 3');
if (service.findById(42) !== undefined) fail('TodoService.findById(42) returns something for an unknown id');
const { buildApp } = await load('src/app.js');
const app = buildApp();
const found = await app.inject({ method: 'GET', url: '/todos/1' });
if (found.statusCode !== 200 || found.json().title !== 'Write the release notes')
  fail(`GET /todos/1 answered ${found.statusCode} ${found.body.slice(0, 200)}`);
const missing = await app.inject({ method: 'GET', url: '/todos/404' });
if (missing.statusCode !== 404 || missing.json().error !== 'not found')
  fail(
    `GET /todos/404 answered ${missing.statusCode} ${missing.body.slice(0, 200)} instead of 404 { error: 'not found' }`,
  );
await app.close();
if (!read('test/todos.test.js').includes('/todos/')) fail('test/todos.test.js does not test /todos/:id');
testsMustPass(['test/']);
pass('GET /todos/:id serves todos through TodoService, 404 otherwise; its test and the suite pass');
