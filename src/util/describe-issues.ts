import type { z } from 'zod';

/**
 * One line per problem zod found, each prefixed with where it is (`turns[2].toolCalls[0].name`),
 * for configuration errors a person has to fix by hand.
 */
export function describeIssues(error: z.ZodError, separator = '; '): string {
  return error.issues.map((issue) => `${issuePath(issue.path)}: ${issue.message}`).join(separator);
}

function issuePath(path: PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}
