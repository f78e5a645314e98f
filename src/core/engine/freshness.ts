import type { FreshnessPolicy } from '../settings/engineChoices';

export function sendsUpdate(policy: FreshnessPolicy, attachedThisTurn: boolean): boolean {
  return policy === 'fresh' || (policy === 'fresh-attached' && attachedThisTurn);
}
