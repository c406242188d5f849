// Preloaded (`node --import ./bench/load-trace.mjs …`) by bench/load-trace.ts: when
// TASKWEAVE_LOAD_TRACE names a file, appends one "parent<TAB>child" line (file URLs) for every
// module file the process loads. ES modules are seen by a resolve hook; CommonJS modules
// required from CommonJS ones (the CLI's bundles, better-sqlite3 and its helpers) never reach
// that hook on Node 20: the bundles' reading is noted in its place, and the CommonJS cache is
// written out at exit. Which modules inside a bundle ran is read from V8's coverage instead
// (load-trace.ts). Programs the process starts are noted too, in their place among the modules.
import { ChildProcess } from 'node:child_process';
import fs, { appendFileSync } from 'node:fs';
import Module, { register, syncBuiltinESMExports } from 'node:module';
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
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function tracedReadFileSync(file, ...rest) {
    if (typeof file === 'string' && file.endsWith('.cjs'))
      appendFileSync(out, `\t${pathToFileURL(file).href}\n`);
    return readFileSync.call(this, file, ...rest);
  };
  syncBuiltinESMExports();
  // Programs started, between the modules: `SPAWN<TAB>file`.
  const spawn = ChildProcess.prototype.spawn;
  ChildProcess.prototype.spawn = function tracedSpawn(options) {
    appendFileSync(out, `SPAWN\t${options?.file ?? ''}\n`);
    return spawn.call(this, options);
  };
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
