import { slug } from './strings.js';

/** The file name of a report with this title. */
export function reportFileName(title) {
  return `${slug(title)}.md`;
}
