// Injected into the CLI's CommonJS bundle by scripts/bundle.mjs (esbuild's `inject`), which
// defines the code's `import.meta.url` as this: the URL of the bundle file itself. Never run on
// its own (CommonJS `require` and `__filename` are the bundle's).
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
