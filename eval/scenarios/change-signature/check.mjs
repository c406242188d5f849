// change-signature: formatPrice takes the currency, the project compiles without silencing the
// compiler, and the callers print what they printed before.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileTypeScript, fail, pass, sourcesIn, tail } from '../../lib/check.mjs';

for (const [file, text] of sourcesIn(['src'], ['.ts'])) {
  if (/@ts-(?:ignore|nocheck|expect-error)|\bas any\b|:\s*any\b/.test(text))
    fail(`${file} silences the compiler instead of fixing the error`);
}
const build = compileTypeScript('tsconfig.json');
if (build.code !== 0) fail(`the build fails:\n${tail(build.output)}`);
const load = (name) => import(pathToFileURL(path.join(build.outDir, `${name}.js`)).href);
const { formatPrice } = await load('money');
const { cartTotal } = await load('cart');
const { receiptLine } = await load('receipt');
if (formatPrice?.length !== 2 || formatPrice(1234, 'USD') !== '12.34 USD')
  fail('formatPrice(1234, "USD") is not "12.34 USD"');
if (cartTotal?.([{ price: 250, quantity: 2 }]) !== '5.00 EUR') fail('cartTotal no longer prints euros');
if (receiptLine?.('tea', 350) !== 'tea................. 3.50 EUR') fail('receiptLine no longer prints euros');
pass('formatPrice takes the currency and the callers print euros as before');
