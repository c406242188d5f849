import { readFileSync } from 'node:fs';

const cache = new Map<string, string>();

/** Reads a prompt template (.md) that sits next to this file, in src/ or in dist/. */
export function loadTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./${name}.md`, import.meta.url), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/**
 * Fills `{{name}}` placeholders. A placeholder without a value is a programming error and
 * throws, so that a prompt never reaches the model with a hole in it.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`The prompt template has no value for {{${key}}}.`);
    return value;
  });
}
