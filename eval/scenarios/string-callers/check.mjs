// string-callers: callers.txt lists exactly the modules that call formatValue with a string
// literal (found here by reading the sources), sorted; no module was changed.
import { readdirSync, readFileSync } from 'node:fs';
import { fail, pass, read } from '../../lib/check.mjs';

const modules = readdirSync('src')
  .filter((name) => /^mod-\d+\.js$/.test(name))
  .sort();
if (modules.length !== 60)
  fail(`src/ holds ${modules.length} modules, not 60: a module was removed or added`);
const expected = modules
  .filter((name) =>
    /formatValue\(\s*['"`]/.test(
      readFileSync(`src/${name}`, 'utf8')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/'[^'\n]*formatValue[^'\n]*'/g, "''"),
    ),
  )
  .map((name) => `src/${name}`);
const listed = read('callers.txt')
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);
const missing = expected.filter((file) => !listed.includes(file));
const extra = listed.filter((file) => !expected.includes(file));
if (missing.length > 0) fail(`callers.txt misses ${missing.join(', ')}`);
if (extra.length > 0)
  fail(`callers.txt lists ${extra.join(', ')}, which do not call formatValue with a string`);
if (listed.join('\n') !== [...listed].sort().join('\n')) fail('callers.txt is not sorted');
pass(`callers.txt lists the ${expected.length} modules that call formatValue with a string literal`);
