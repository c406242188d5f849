import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capitalize, slug } from '../src/strings.js';

test('capitalize', () => assert.equal(capitalize('ada'), 'Ada'));
test('slug', () => assert.equal(slug(' Hello World '), 'hello-world'));
