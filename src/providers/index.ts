export { createProvider, type ProviderDeps } from './createProvider';
export { capabilitiesFor } from './capabilities';
export { ProviderError, isProviderError, type ProviderErrorKind } from './errors';
export { costOf, formatCost, priceOf, sumCosts, type Cost, type CostTotal, type ModelPrice, type PriceOverrides } from './pricing';
export { requestUrlFetch, type RequestUrlLike } from './requestUrlFetch';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
