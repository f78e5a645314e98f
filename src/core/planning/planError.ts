import type { PlanCall } from '../conversation/records/plan';

/** Why a planner's answer could not be used; the caller falls back to the deterministic plan. */
export type PlanFailure = 'no-provider' | 'provider' | 'timeout' | 'invalid-json' | 'schema';

/** A planner failure, with a message that says what went wrong (shown in the fallback's warning). */
export class PlanError extends Error {
  constructor(
    message: string,
    readonly reason: PlanFailure,
    /** The model call when one was answered (an unusable answer still costs): the caller records it. */
    readonly call: PlanCall | null = null,
  ) {
    super(message);
    this.name = 'PlanError';
  }
}
