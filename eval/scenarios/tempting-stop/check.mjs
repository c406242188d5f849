// tempting-stop: all three parts — slugify, its tests, and the CLI using it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fail, mustExist, pass, read, run, testsMustPass } from '../../lib/check.mjs';

mustExist('src/slugify.js');
const { slugify } = await import(pathToFileURL(path.resolve('src/slugify.js')).href);
const cases = [
  ['Hello, World!', 'hello-world'],
  ['  Top 10 -- Tips  ', 'top-10-tips'],
  ['already-a-slug', 'already-a-slug'],
];
for (const [input, expected] of cases) {
  const actual = slugify?.(input);
  if (actual !== expected)
    fail(`slugify(${JSON.stringify(input)}) is ${JSON.stringify(actual)}, not "${expected}"`);
}
const tests = read('test/slugify.test.js');
if (!tests.includes('slugify')) fail('test/slugify.test.js does not test slugify');
testsMustPass(['test/']);
const cli = run(process.execPath, ['src/cli.js', 'Big News Today']);
if (cli.code !== 0 || cli.output.trim() !== 'big-news-today')
  fail(`node src/cli.js "Big News Today" printed ${JSON.stringify(cli.output.trim())}, not "big-news-today"`);
pass('slugify works, its tests pass, and src/cli.js prints slugs');
