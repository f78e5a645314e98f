import path from 'node:path';

/**
 * Where tests find their inputs. `npm test` reads only the project's own: one vault (also the
 * demo's and the workbench's) and the example scenarios. The shared corpus and scenarios beside
 * the checkout are for `npm run test:corpus` only (__tests__/corpus, jest.corpus.config.cjs).
 */
export const ROOT = path.resolve(__dirname, '..', '..');
export const VAULT = path.join(ROOT, 'examples', 'vault');
export const SCENARIOS = path.join(ROOT, 'examples', 'scenarios');

export const SHARED = path.resolve(ROOT, '..', 'shared');
export const CORPUS = path.join(SHARED, 'corpus');
export const SHARED_SCENARIOS = path.join(SHARED, 'scenarios');
