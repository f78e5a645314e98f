import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const GOLDEN_DIR = path.join(__dirname, '..', 'golden');

/**
 * `payload` as pretty JSON must equal __tests__/golden/<name>.json. UPDATE_GOLDEN=1 rewrites the
 * file (locally only, to be reviewed); a missing file fails, so a deleted golden cannot pass.
 */
export function expectGolden(name: string, payload: unknown): void {
  const text = `${JSON.stringify(payload, null, 2)}\n`;
  const file = path.join(GOLDEN_DIR, `${name}.json`);
  if (process.env.UPDATE_GOLDEN === '1') {
    if (process.env.CI) throw new Error('UPDATE_GOLDEN=1 in CI: golden files are regenerated locally and reviewed, never in CI');
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
  }
  if (!existsSync(file)) throw new Error(`golden file ${name}.json is missing; generate it with UPDATE_GOLDEN=1 and review it`);
  expect(text).toBe(readFileSync(file, 'utf8'));
}
