// rename-export: parseAmount is parseCents everywhere, the project compiles without silencing the
// compiler, and the importers compute what they computed before.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileTypeScript, fail, pass, sourcesIn, tail } from '../../lib/check.mjs';

for (const [file, text] of sourcesIn(['src'], ['.ts'])) {
  if (/@ts-(?:ignore|nocheck|expect-error)|\bas any\b|:\s*any\b/.test(text))
    fail(`${file} silences the compiler instead of fixing the error`);
  if (/\bparseAmount\b/.test(text)) fail(`${file} still refers to parseAmount`);
}
const build = compileTypeScript('tsconfig.json');
if (build.code !== 0) fail(`the build fails:\n${tail(build.output)}`);
const load = (name) => import(pathToFileURL(path.join(build.outDir, `${name}.js`)).href);
const { parseCents } = await load('amount');
const { sumAmounts } = await load('cart');
const { refundCents } = await load('refund');
if (parseCents?.('12.34') !== 1234) fail('parseCents("12.34") is not 1234');
if (sumAmounts?.(['1.50', '2']) !== 350) fail('sumAmounts(["1.50", "2"]) is not 350');
if (refundCents?.('0.5') !== -50) fail('refundCents("0.5") is not -50');
pass('parseAmount is parseCents in every file and the importers compute as before');
