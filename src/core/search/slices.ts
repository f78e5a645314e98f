import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { DEFAULT_TIMERS } from '../timers';

/**
 * Work in slices: the index builds, updates and saves inside the host's UI thread, so long work
 * is cut into steps (generators that yield) and paused between them once a slice has run its
 * time. The host injects the clock (core reads none); it decides only when to pause, never what
 * is indexed or sent anywhere. Without a clock, slices are cut by count only (every so many notes).
 */

/** A pause that lets the host run: a macrotask. */
export const macrotask = (): Promise<void> => new Promise((resolve) => DEFAULT_TIMERS.setTimeout(resolve, 0));

/** Whether the current slice has run its time (never, without a clock: then only the callers' counts pause). */
export class SliceClock {
  private start: number;

  /** `now`: a monotonic clock in milliseconds (performance.now in the app). */
  constructor(
    readonly ms: number,
    private readonly now?: () => number,
  ) {
    this.start = now ? now() : 0;
  }

  get due(): boolean {
    if (!this.now) return false;
    return this.now() - this.start >= this.ms;
  }

  restart(): void {
    if (this.now) this.start = this.now();
  }
}

/** Characters hashed per step (about 256 KB of UTF-8 for English text: a few ms). */
const HASH_PIECE = 1 << 18;

/** sha256Hex(text) a piece at a time (the same hex: the UTF-8 bytes are fed in order, pairs never split). */
export function* hashInSlices(text: string): Generator<void, string> {
  const hasher = sha256.create();
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + HASH_PIECE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--; // A high surrogate stays with its low half.
    hasher.update(encoder.encode(text.slice(at, end)));
    at = end;
    yield;
  }
  return bytesToHex(hasher.digest());
}

/** Runs steps to the end, pausing whenever the slice is due. Stops (the generator's finally runs) on abort. */
export async function driveSteps<T>(steps: Generator<void, T>, clock: SliceClock, pause: () => Promise<void>, signal?: AbortSignal): Promise<T> {
  try {
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      if (clock.due) {
        await pause();
        clock.restart();
        if (signal?.aborted) throw abortError();
      }
    }
  } finally {
    steps.return(undefined as T);
  }
}

export function abortError(): Error {
  const error = new Error('The search was stopped.');
  error.name = 'AbortError';
  return error;
}

/** Runs a step generator to its end at once. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs a step generator, pausing between steps. */
export async function runStepsAsync<T>(steps: Generator<void, T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await pause();
  }
}
