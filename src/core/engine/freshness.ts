import { FRESHNESS_POLICIES, type FreshnessPolicy } from '../settings/engineChoices';

export { FRESHNESS_POLICIES, type FreshnessPolicy };

export function sendsUpdate(policy: FreshnessPolicy, attachedThisTurn: boolean): boolean {
  return policy === 'fresh' || (policy === 'fresh-attached' && attachedThisTurn);
}
