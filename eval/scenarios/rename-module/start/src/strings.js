/** "ada" → "Ada". */
export function capitalize(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "Hello World" → "hello-world". */
export function slug(text) {
  return text.trim().toLowerCase().split(/\s+/).join('-');
}
