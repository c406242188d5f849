/** "Hello, World!" → "hello-world": runs of letters and digits, lower case, joined by dashes. */
export function slugify(text) {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).join('-');
}
