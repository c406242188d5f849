import { z } from 'zod';
import { containsNul, nulRefusal } from './stored-text.js';

/** A string field of a client message or REST body that refuses NUL characters. */
export function storedText(field: string) {
  return z.string().refine((text) => !containsNul(text), nulRefusal(field));
}
