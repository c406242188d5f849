// Preloaded (`node --import ./bench/load-trace.mjs …`) by bench/startup-modules.ts: when
// TASKWEAVE_LOAD_TRACE names a file, appends one "parent<TAB>child" line (file URLs) for every
// module the process loads. ES modules are seen by a resolve hook; CommonJS modules required from
// CommonJS ones (better-sqlite3 and its helpers) never reach that hook on Node 20, so the
// CommonJS cache is written out at exit as well.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const out = process.env.TASKWEAVE_LOAD_TRACE;

const RESOLVE_HOOK = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(out, (context.parentURL ?? '') + '\\t' + result.url + '\\n');
  return result;
}
`;

if (out !== undefined) {
  register(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOK)}`, { data: { out } });
  process.on('exit', () => {
    const lines = [];
    for (const [file, loaded] of Object.entries(Module._cache)) {
      const parent = pathToFileURL(file).href;
      lines.push(`\t${parent}`);
      for (const child of loaded.children) lines.push(`${parent}\t${pathToFileURL(child.filename).href}`);
    }
    appendFileSync(out, `${lines.join('\n')}\n`);
  });
}
