import { capitalize } from './text.js';

/** A greeting for a person. */
export function greet(name) {
  return `Hello, ${capitalize(name)}!`;
}
