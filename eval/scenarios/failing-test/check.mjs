// failing-test: the tests are unchanged, they pass, and median is right on cases they do not cover.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fail, pass, read, testsMustPass } from '../../lib/check.mjs';

const original = readFileSync(new URL('./start/test/stats.test.js', import.meta.url), 'utf8');
if (read('test/stats.test.js') !== original) fail('test/stats.test.js was changed');
testsMustPass(['test/']);
const { mean, median } = await import(pathToFileURL(path.resolve('src/stats.js')).href);
if (median([9, 100, 20, 3]) !== 14.5) fail(`median([9, 100, 20, 3]) is ${median([9, 100, 20, 3])}, not 14.5`);
if (median([-5, -10, 1]) !== -5) fail(`median([-5, -10, 1]) is ${median([-5, -10, 1])}, not -5`);
if (mean([2, 4]) !== 3) fail('mean no longer works');
pass('the tests are unchanged and pass; median sorts numerically');
