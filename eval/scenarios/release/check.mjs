// release: 1.3.0 in both places, and a 1.3.0 changelog section above 1.2.0 with both fixes.
import { fail, pass, read, readJson } from '../../lib/check.mjs';

const version = readJson('package.json').version;
if (version !== '1.3.0') fail(`package.json says version ${version}`);
if (!/VERSION\s*=\s*['"]1\.3\.0['"]/.test(read('src/version.js'))) fail('src/version.js does not say 1.3.0');
const changelog = read('CHANGELOG.md');
const at = changelog.search(/^##\s*\[?v?1\.3\.0/m);
const previous = changelog.search(/^##\s*\[?v?1\.2\.0/m);
if (at === -1) fail('CHANGELOG.md has no 1.3.0 section');
if (previous === -1) fail('CHANGELOG.md lost its 1.2.0 section');
if (at > previous) fail('the 1.3.0 section is not above 1.2.0');
const section = changelog.slice(at, previous);
if (!/midnight/i.test(section)) fail('the 1.3.0 section does not list the midnight fix');
if (!/retr/i.test(section)) fail('the 1.3.0 section does not list the retry fix');
pass('version 1.3.0 everywhere, with its changelog section');
