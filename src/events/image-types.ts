/*
 * The image types taskweave accepts, without zod: the stores' schemas read them, and a quick
 * command (`tasks list`) that opens a store loads no schema library (images.ts has the records' schemas).
 */

/** The image types taskweave accepts (decided from the bytes, never from a name or a header). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** One of IMAGE_MEDIA_TYPES. */
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];
