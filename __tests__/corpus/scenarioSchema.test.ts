import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseScenario } from '../../src/core/scenario/scenario';
import { SHARED_SCENARIOS } from '../helpers/paths';

describe('scenario schema over the shared scenarios', () => {
  test('every shared scenario reads', () => {
    const files = readdirSync(SHARED_SCENARIOS).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(() => parseScenario(JSON.parse(readFileSync(path.join(SHARED_SCENARIOS, file), 'utf8')), file)).not.toThrow();
  });
});
