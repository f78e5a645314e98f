import { readdirSync } from 'node:fs';
import path from 'node:path';
import { SHARED_SCENARIOS } from '../helpers/paths';
import { expectDeterministic, expectSeedBreaksNamed, expectStableJsonLines, inspect } from '../scripts/inspector/inspectorCli';

// The prompt inspector over every shared scenario (../shared/scenarios).
const SCENARIOS = readdirSync(SHARED_SCENARIOS).filter((f) => f.endsWith('.json'));
const shared = (file: string) => path.join(SHARED_SCENARIOS, file);

describe('the prompt inspector CLI over the shared scenarios', () => {
  it('finds the shared scenarios', () => {
    expect(SCENARIOS).toEqual(expect.arrayContaining(['research-session.json', 'edited-note.json', 'long-chat.json']));
  });

  it.each(SCENARIOS)('replays %s as JSON lines with the stable fields', (file) => expectStableJsonLines(shared(file)));

  it('prints a table with tokens per layer and the edited note reported', async () => {
    const { stdout } = await inspect([shared('edited-note.json'), '--format', 'table']);
    expect(stdout).toMatch(/turn\s+L1\s+L2\s+L3\s+L4\s+L5\s+prompt/);
    expect(stdout).toContain('turn 2: full: Getting Started/Priority.md@2; freshness: Getting Started/Priority.md updated (v1 → v2)');
    expect(stdout).toContain('turn 3: by reference: Getting Started/Priority.md');
  });

  it('is deterministic: two runs print the same bytes', () => expectDeterministic(shared('research-session.json')));

  it('the seed rendering names its prefix breaks', () => expectSeedBreaksNamed(shared('research-session.json')));

  it('rejects an unknown format for a shared scenario', async () => {
    await expect(inspect([shared('edited-note.json'), '--format', 'xml'])).rejects.toMatchObject({ code: 2 });
  });
});
