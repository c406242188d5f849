import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mean, median } from '../src/stats.js';

test('mean', () => assert.equal(mean([1, 2, 3, 6]), 3));
test('median of an odd count', () => assert.equal(median([3, 1, 2]), 2));
test('median of numbers of different lengths', () => assert.equal(median([5, 10, 100]), 10));
