import type { z } from 'zod';

/**
 * One line per problem zod found, each prefixed with where it is (`turns[2].toolCalls[0].name`),
 * for configuration errors a person has to fix by hand; `hint` may add a word in brackets to an
 * issue (a config's "did you mean").
 */
export function describeIssues(
  error: z.ZodError,
  separator = '; ',
  hint: (issue: z.core.$ZodIssue) => string | undefined = () => undefined,
): string {
  return error.issues
    .map((issue) => {
      const more = hint(issue);
      return `${issuePath(issue.path)}: ${issue.message}${more === undefined ? '' : ` (${more})`}`;
    })
    .join(separator);
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
