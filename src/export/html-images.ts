import { IMAGE_MEDIA_TYPES, type ImageRecord } from '../events/images.js';
import type { ServerEvent } from '../events/registry.js';
import { escapeHtml as h } from './html-text.js';

/** The stored bytes of a session's images by hash, as the front end loaded them for an export. */
export type ImageBytes = ReadonlyMap<string, Uint8Array>;

const MEDIA_TYPES: ReadonlySet<string> = new Set(IMAGE_MEDIA_TYPES);

/** The hashes of the images a session's messages carried, each once: what an HTML export needs loaded. */
export function sessionImageHashes(events: readonly ServerEvent[]): string[] {
  const hashes = new Set<string>();
  for (const event of events)
    if (event.type === 'agent_update' && event.update_type === 'agent_start')
      for (const image of event.images ?? []) hashes.add(image.hash);
  return [...hashes];
}

/**
 * The images of a user's message in the HTML export: each embedded as a `data:` URI so the page
 * stays one file that loads nothing (its policy allows `data:` images only), drawn at its
 * recorded size and scaled down to the page's width. An image whose bytes were not given (no
 * longer stored) is named with its hash instead.
 */
export function messageImagesHtml(images: readonly ImageRecord[], bytes: ImageBytes | undefined): string {
  if (images.length === 0) return '';
  const figures = images.map((image, index) => {
    const label = `Image ${index + 1} of ${images.length} (${kind(image)}, ${image.width}×${image.height})`;
    const stored = bytes?.get(image.hash);
    if (stored === undefined || !MEDIA_TYPES.has(image.media_type))
      return `<figure class="image-missing"><figcaption>${h(label)}: not stored, <code>${h(image.hash)}</code></figcaption></figure>`;
    const source = `data:${image.media_type};base64,${Buffer.from(stored).toString('base64')}`;
    return `<figure><img src="${source}" width="${image.width}" height="${image.height}" alt="${h(label)}"><figcaption>${h(label)}</figcaption></figure>`;
  });
  return `<div class="message-images">${figures.join('')}</div>`;
}

function kind(image: ImageRecord): string {
  return image.media_type.replace('image/', '').toUpperCase();
}
