import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_IMAGES_PER_MESSAGE } from '../../../src/events/images.js';
import { type ImageRecord, uploadImage } from '../connection/images.js';

/** An image attached to the message being written: uploading, stored, or refused. */
export type Attachment = {
  /** This page's key for it (one file may be attached twice). */
  id: number;
  name: string;
  size: number;
  /** The local file, for its thumbnail (an object URL, revoked when it goes). */
  preview: string;
} & ({ state: 'uploading' } | { state: 'stored'; image: ImageRecord } | { state: 'refused'; error: string });

/** What the composer does with its attachments. */
export interface Attachments {
  list: readonly Attachment[];
  /** Attaches files: each uploads at once. */
  add(files: readonly File[]): void;
  remove(id: number): void;
  /** Forgets every attachment (after a send). */
  clear(): void;
  /** How many are still uploading. */
  uploading: number;
  /** The hashes of the stored ones, in the order they were attached. */
  hashes: string[];
}

/**
 * The images of the message being written. A file uploads as soon as it is attached, so a send
 * only names hashes; a refusal stays beside the composer with the server's reason until removed.
 * More than the message's maximum is refused here, before any upload.
 */
export function useAttachments(): Attachments {
  const [list, setList] = useState<readonly Attachment[]>([]);
  const nextId = useRef(0);
  const current = useRef(list);
  current.current = list;
  useEffect(() => () => revoke(current.current), []);

  // Stable across renders (they read the list through the ref): a window listener may hold one.
  const add = useCallback((files: readonly File[]) => {
    // A removed attachment whose upload ends later is not brought back.
    const settle = (id: number, settled: Attachment) =>
      setList((attached) => attached.map((attachment) => (attachment.id === id ? settled : attachment)));
    let room =
      MAX_IMAGES_PER_MESSAGE - current.current.filter((attachment) => attachment.state !== 'refused').length;
    const added = files.map((file): Attachment => {
      const base = { id: nextId.current++, name: file.name || 'pasted image', size: file.size, preview: '' };
      if (room <= 0)
        return {
          ...base,
          state: 'refused',
          error: `A message takes at most ${MAX_IMAGES_PER_MESSAGE} images: remove one to attach this.`,
        };
      room -= 1;
      const attachment: Attachment = { ...base, preview: URL.createObjectURL(file), state: 'uploading' };
      uploadImage(file).then(
        (image) => settle(attachment.id, { ...attachment, state: 'stored', image }),
        (error: Error) => settle(attachment.id, { ...attachment, state: 'refused', error: error.message }),
      );
      return attachment;
    });
    // Counted at once: a second paste before the next render sees these.
    current.current = [...current.current, ...added];
    setList((attached) => [...attached, ...added]);
  }, []);

  const remove = useCallback((id: number) => {
    setList((attached) => {
      revoke(attached.filter((attachment) => attachment.id === id));
      return attached.filter((attachment) => attachment.id !== id);
    });
  }, []);

  const clear = useCallback(() => {
    revoke(current.current);
    setList([]);
  }, []);

  return {
    list,
    add,
    remove,
    clear,
    uploading: list.filter((attachment) => attachment.state === 'uploading').length,
    hashes: list.flatMap((attachment) => (attachment.state === 'stored' ? [attachment.image.hash] : [])),
  };
}

function revoke(attachments: readonly Attachment[]): void {
  for (const attachment of attachments) if (attachment.preview) URL.revokeObjectURL(attachment.preview);
}
