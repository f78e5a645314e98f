import path from 'node:path';
import type { PromptContextEngine } from '../../../src/core/engine/engine';
import { reloadThroughNote, type Reloaded } from '../../../src/core/conversation/reload';
import { toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { replayScenario } from '../../../src/core/scenario/replay';
import { loadScenario, scenarioFiles } from './helpers';

/**
 * Rehydration: replaying a scenario with a save and reload (codec + store + vault re-read) before
 * every turn sends exactly the same messages as the uninterrupted replay, except where a note
 * changed between save and load: there the difference is reported as note-edited.
 */
describe('rehydration: save and reload before every turn', () => {
  for (const file of scenarioFiles()) {
    const name = path.basename(file, '.json');
    test(name, async () => {
      const { scenario, vault } = loadScenario(file);
      const plain = (await replayScenario(scenario, vault)).map(toInspectRecord);
      const reloads: Reloaded[] = [];
      const reloaded = (
        await replayScenario(scenario, vault, {
          beforeTurn: async (engine: PromptContextEngine, _turn, overlay) => {
            const r = await reloadThroughNote(engine, overlay, { id: `chat-${name}`, provider: 'openai', model: scenario.model });
            reloads.push(r);
            expect(r.warnings).toEqual([]);
            return r.engine;
          },
        })
      ).map(toInspectRecord);
      expect(reloaded).toHaveLength(plain.length);

      const firstEdit = scenario.turns.findIndex((t) => t.edits.length > 0);
      const clean = firstEdit < 0 ? plain.length : firstEdit;
      // Up to the first edit: identical, message for message, byte for byte.
      for (let i = 0; i < clean; i++) {
        expect(reloaded[i]).toEqual(plain[i]);
        expect(reloads[i].issues).toEqual([]);
      }
      if (firstEdit < 0) return;

      // The edited note: the unbroken session sends the new version (freshness: updated) and
      // extends its prefix; the reloaded one finds the note changed since the save and says so.
      const edited = scenario.turns[firstEdit].edits.map((e) => e.note);
      const unbroken = plain[firstEdit];
      const reopened = reloaded[firstEdit];
      expect(unbroken.prefixChange).toBeNull();
      expect(unbroken.freshness.map((f) => [f.id, f.status])).toEqual(expect.arrayContaining(edited.map((id) => [id, 'updated'])));
      expect(reopened.prefixChange).toBe('note-edited');
      for (const id of edited) expect(reopened.prefixChangeDetail).toContain(id);
      expect(reloads[firstEdit].edited).toEqual(edited);
      expect(reloads[firstEdit].issues.map((i) => i.kind)).toEqual(edited.map(() => 'edited'));
      expect(reopened.messages).not.toEqual(unbroken.messages);
      // The request after the reload carries the note's current text (history re-read from the vault).
      for (const edit of scenario.turns[firstEdit].edits) {
        if ('append' in edit) expect(reopened.messages.some((m) => m.content.includes(edit.append.trim()))).toBe(true);
      }
      // Every later turn extends the reopened chat again (no other break).
      for (let i = firstEdit + 1; i < reloaded.length; i++) expect(reloaded[i].prefixChange).toBeNull();
    });
  }
});
