import type { ImagePart, ImageRef } from './types';

/** An image as a chat note keeps it: everything but its bytes. */
export function imageRefOf(image: ImageRef | ImagePart): ImageRef {
  return {
    path: image.path,
    mediaType: image.mediaType,
    width: image.width,
    height: image.height,
    bytes: image.bytes,
    hash: image.hash,
    tokens: image.tokens,
  };
}
