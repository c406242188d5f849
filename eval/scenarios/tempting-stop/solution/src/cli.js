import { slugify } from './slugify.js';

// Prints its argument as a slug.
console.log(slugify(process.argv.slice(2).join(' ')));
