// rename-module: src/strings.js became src/text.js with the same exports, nothing refers to
// strings.js any more, the docs and the test follow, and the suite passes.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fail, mustExist, mustNotExist, pass, read, sourcesIn, testsMustPass } from '../../lib/check.mjs';

mustNotExist('src/strings.js');
mustExist('src/text.js');
const text = await import(pathToFileURL(path.resolve('src/text.js')).href);
if (text.capitalize?.('ada') !== 'Ada' || text.slug?.('Big News') !== 'big-news')
  fail('src/text.js does not export capitalize and slug as src/strings.js did');
for (const [file, source] of sourcesIn(['src', 'test', '.'], ['.js', '.md'])) {
  if (/strings(\.js|['"])/.test(source)) fail(`${file} still refers to strings.js`);
}
for (const file of ['src/greet.js', 'src/report.js'])
  if (!read(file).includes('./text.js')) fail(`${file} does not import ./text.js`);
if (!read('README.md').includes('src/text.js')) fail('README.md does not document src/text.js');
mustNotExist('test/strings.test.js');
if (!read('test/text.test.js').includes('../src/text.js'))
  fail('test/text.test.js does not test ../src/text.js');
mustExist('test/greet.test.js');
testsMustPass(['test/']);
pass('the module is src/text.js everywhere: imports, docs and tests; the suite passes');
