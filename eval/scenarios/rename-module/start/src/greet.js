import { capitalize } from './strings.js';

/** A greeting for a person. */
export function greet(name) {
  return `Hello, ${capitalize(name)}!`;
}
