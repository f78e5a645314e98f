import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { sha256TextHex } from './sha256Text';

/** Hex sha256 of a UTF-8 string. Pure JS so it runs the same on desktop, mobile and Node. */
export function sha256Hex(text: string): string {
  return sha256TextHex(text);
}

/** Hex sha256 of raw bytes (an image file). */
export function sha256BytesHex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** Hash of an ordered list of hashes (a layer's segments): cost is O(segments), not O(bytes). */
export function combineHashes(parts: readonly string[]): string {
  return sha256Hex(parts.join('\n'));
}

/** Short form used in rendered text and tables. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

type Sha256State = ReturnType<typeof sha256.create>;

/**
 * combineHashes for lists that mostly grow at the end (a conversation's message hashes). It keeps
 * hasher states at the lengths it was asked for, so a list that shares a prefix with the last one
 * costs only the parts after the nearest such state. Same output as combineHashes.
 */
export class HashChain {
  private parts: readonly string[] = [];
  /** Hasher state after the first `length` parts, for a few recent lengths. */
  private checkpoints = new Map<number, Sha256State>([[0, sha256.create()]]);
  private static readonly MAX_CHECKPOINTS = 8;

  combine(list: readonly string[]): string {
    let shared = 0;
    const limit = Math.min(list.length, this.parts.length);
    while (shared < limit && list[shared] === this.parts[shared]) shared++;
    let from = 0;
    for (const length of this.checkpoints.keys()) if (length <= shared && length > from) from = length;
    const state = (this.checkpoints.get(from) as Sha256State).clone() as Sha256State;
    for (let i = from; i < list.length; i++) state.update(utf8ToBytes(i === 0 ? list[i] : `\n${list[i]}`));
    const diverged = shared < list.length && shared < this.parts.length;
    if (diverged) {
      // States past the shared part describe another history.
      for (const length of [...this.checkpoints.keys()]) if (length > shared) this.checkpoints.delete(length);
    }
    // Checkpoints are always prefixes of `parts`: keep the longer list unless this one diverged.
    if (diverged || list.length > this.parts.length) this.parts = [...list];
    this.checkpoints.set(list.length, state.clone() as Sha256State);
    while (this.checkpoints.size > HashChain.MAX_CHECKPOINTS) {
      const oldest = [...this.checkpoints.keys()].filter((k) => k !== 0).sort((a, b) => a - b)[0];
      this.checkpoints.delete(oldest);
    }
    return bytesToHex(state.digest());
  }
}
