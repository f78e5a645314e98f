/** Milliseconds since the epoch. Core code never reads the system clock: the host injects one. */
export interface Clock {
  now(): number;
}
