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

/** A line that opens a section of a template of several texts: `<!-- name -->`. */
const SECTION_LINE = /^<!-- ([a-z][a-z0-9-]*) -->$/gm;

/**
 * The texts of a template that holds several (a tool's description and the results it returns,
 * the notes of one rule), by name. Each text opens with a line `<!-- name -->` and runs to the
 * next such line; the blank lines around it are not part of it. Anything before the first
 * section is ignored (a note for the maintainer).
 */
export function templateSections(name: string): ReadonlyMap<string, string> {
  const parts = loadTemplate(name).split(SECTION_LINE);
  const sections = new Map<string, string>();
  for (let index = 1; index < parts.length; index += 2) {
    const key = parts[index]!;
    if (sections.has(key)) throw new Error(`The prompt template ${name} has two sections ${key}.`);
    sections.set(key, parts[index + 1]!.replace(/^\n+/, '').replace(/\n+$/, ''));
  }
  return sections;
}

/**
 * One text of a template of several (see templateSections), its `{{name}}` placeholders filled.
 * A section the template does not have, or a placeholder without a value, is a programming error
 * and throws.
 */
export function fillSection(name: string, section: string, values: Record<string, string> = {}): string {
  const text = templateSections(name).get(section);
  if (text === undefined) throw new Error(`The prompt template ${name} has no section ${section}.`);
  return fillTemplate(text, values);
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
