/**
 * A task id as it appears in git ref names (a task's branch, `taskweave/<goal>.<name>`). The
 * encoding is injective, so two tasks of one plan never share a branch or a worktree: an id git
 * accepts as it is (letters, digits, `.`, `_`, `-`; not starting with `.`, `-` or `_`; no `..`;
 * not ending in `.` or `.lock`) is its own name; any other id becomes `_` followed by its letters
 * and digits, every other character written `_<hex code point>-` (`a b` → `_a_20-b`,
 * `设置` → `_8bbe-_7f6e-`). The two kinds cannot meet: only encoded names
 * start with `_`, and an encoded name can be read back.
 */
export function taskRefName(id: string): string {
  if (isPlainRefName(id)) return id;
  let encoded = '_';
  for (const char of id)
    encoded += /^[A-Za-z0-9]$/.test(char) ? char : `_${char.codePointAt(0)?.toString(16)}-`;
  return encoded;
}

/** Whether git takes the id in a ref name unchanged (and it cannot be mistaken for an encoded one). */
function isPlainRefName(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes('..') && !/(\.|\.lock)$/.test(id);
}
