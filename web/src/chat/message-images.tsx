import { useEffect, useState } from 'react';
import { fetchImage, type ImageRecord } from '../connection/images.js';

/** The box a thumbnail of the timeline fits in (CSS pixels). */
const THUMBNAIL_BOX = { width: 200, height: 150 };

/**
 * The size a thumbnail is drawn at: the image scaled down (never up) to fit the box, keeping its
 * proportions. Known from the record before the bytes arrive, so the timeline does not jump.
 */
export function thumbnailSize(
  image: Pick<ImageRecord, 'width' | 'height'>,
  box = THUMBNAIL_BOX,
): { width: number; height: number } {
  const scale = Math.min(1, box.width / image.width, box.height / image.height);
  return {
    width: Math.max(1, Math.round(image.width * scale)),
    height: Math.max(1, Math.round(image.height * scale)),
  };
}

/** The images of a user's message, as thumbnails; each opens in full in a new tab. */
export function MessageImages({ images }: { images: readonly ImageRecord[] }) {
  return (
    <ul className="message-images" aria-label="Attached images">
      {images.map((image, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a message's images never change order, and one image may come twice
        <li key={`${image.hash}:${index}`}>
          <StoredImage image={image} label={`Image ${index + 1} of ${images.length}`} />
        </li>
      ))}
    </ul>
  );
}

function StoredImage({ image, label }: { image: ImageRecord; label: string }) {
  const url = useImageUrl(image.hash);
  const size = thumbnailSize(image);
  const alt = `${label} (${image.media_type.replace('image/', '').toUpperCase()}, ${image.width}×${image.height})`;
  if (url === undefined || url instanceof Error)
    return (
      <span
        className={`message-image placeholder${url instanceof Error ? ' missing' : ''}`}
        style={{ width: size.width, aspectRatio: `${size.width} / ${size.height}` }}
        role="img"
        aria-label={url instanceof Error ? `${alt}: ${url.message}` : `${alt}, loading`}
        title={url instanceof Error ? url.message : undefined}
      />
    );
  return (
    <a href={url} target="_blank" rel="noreferrer" title="Open the full image">
      <img className="message-image" src={url} alt={alt} width={size.width} height={size.height} />
    </a>
  );
}

/**
 * An object URL of a stored image: its bytes are fetched with the tab's token (the API takes no
 * token in a URL), then revoked when the thumbnail goes.
 */
function useImageUrl(hash: string): string | Error | undefined {
  const [url, setUrl] = useState<string | Error>();
  useEffect(() => {
    const abort = new AbortController();
    let made: string | undefined;
    fetchImage(hash, abort.signal).then(
      (blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      (error: Error) => {
        if (!abort.signal.aborted) setUrl(error);
      },
    );
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [hash]);
  return url;
}
