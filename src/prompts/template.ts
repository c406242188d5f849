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
  const parts = compiled(template);
  let text = parts[0]!;
  for (let index = 1; index < parts.length; index += 2) {
    const key = parts[index]!;
    const value = values[key];
    if (value === undefined) throw new Error(`The prompt template has no value for {{${key}}}.`);
    text += value + parts[index + 1]!;
  }
  return text;
}

const compiledTemplates = new Map<string, string[]>();

/** The template split once into text, key, text, key, …, text (a task's prompt is filled every step). */
function compiled(template: string): string[] {
  let parts = compiledTemplates.get(template);
  if (parts === undefined) {
    parts = template.split(/\{\{(\w+)\}\}/);
    compiledTemplates.set(template, parts);
  }
  return parts;
}
