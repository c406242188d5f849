import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/greet.js';
import { reportFileName } from '../src/report.js';

test('greet', () => assert.equal(greet('grace'), 'Hello, Grace!'));
test('reportFileName', () => assert.equal(reportFileName('Q3 Sales'), 'q3-sales.md'));
