/** Thrown by readers for content that must not be sent (binary, over the size limit, outside the vault). */
export class UnreadableNoteError extends Error {
  constructor(
    readonly path: string,
    readonly reason: 'binary' | 'too-large' | 'unreadable' | 'outside-vault',
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'UnreadableNoteError';
  }
}

/** Binary check shared by readers: a NUL byte or many replacement characters in the first 8 KB. */
export function looksBinary(text: string): boolean {
  const head = text.slice(0, 8192);
  if (head.includes('\u0000')) return true;
  // Nearly every note has no replacement character: one native scan instead of a loop over its characters.
  if (!head.includes('\ufffd')) return false;
  let bad = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0xfffd) bad++;
  return head.length > 0 && bad / head.length > 0.05;
}
