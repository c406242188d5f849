// Copies the prompt templates (.md) next to the compiled prompt builders in dist/.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';

mkdirSync('dist/prompts', { recursive: true });
for (const name of readdirSync('src/prompts')) {
  // The folder's README.md is for people, not a template.
  if (name.endsWith('.md') && name !== 'README.md') cpSync(`src/prompts/${name}`, `dist/prompts/${name}`);
}
