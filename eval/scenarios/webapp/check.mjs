// webapp: the project exists, src/index.ts has a main function, public/index.html loads a
// script, and the project compiles.
import { compileTypeScript, fail, mustExist, pass, read, readJson, tail } from '../../lib/check.mjs';

const pkg = readJson('webapp/package.json');
if (typeof pkg.scripts?.build !== 'string') fail('webapp/package.json has no build script');
mustExist('webapp/tsconfig.json');
const index = read('webapp/src/index.ts');
if (!/\bfunction\s+main\s*\(|\b(?:const|let)\s+main\s*=/.test(index))
  fail('webapp/src/index.ts has no main function');
const html = read('webapp/public/index.html');
if (!/<html[\s>]/i.test(html) || !/<script[\s>]/i.test(html))
  fail('webapp/public/index.html is not an HTML page that loads a script');
const build = compileTypeScript('webapp/tsconfig.json');
if (build.code !== 0) fail(`webapp does not build:\n${tail(build.output)}`);
pass('webapp has its project files, a main function and a page, and it builds');
