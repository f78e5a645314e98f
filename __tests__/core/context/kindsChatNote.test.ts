/**
 * Canvases and Dataview blocks in the chat note (issue 31): the kinds scenario (a canvas, a note with
 * Dataview blocks with the stand-in Dataview answering, the canvas edited) saved as a chat note and
 * reopened sends exactly what the unbroken chat sends; the context list names each kind. Real files,
 * codec, store, engine and tokenizer.
 */
import path from 'node:path';
import { encodeChatNote, decodeChatNote } from '../../../src/core/conversation/codec';
import { reloadThroughNote, type Reloaded } from '../../../src/core/conversation/reload';
import type { PromptContextEngine } from '../../../src/core/engine/engine';
import { toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { replayScenario } from '../../../src/core/scenario/replay';
import { loadScenario, recordScenarioOver } from '../conversation/helpers';
import { withDataview } from '../../../testing/dataview/standInVault';
import { SCENARIOS } from '../../helpers/paths';

const file = path.join(SCENARIOS, 'kinds.json');

test('saved and reopened before every turn: the same requests, with Dataview results, up to the canvas edit', async () => {
  const { scenario, vault } = loadScenario(file);
  const dv = withDataview(vault);
  const plain = (await replayScenario(scenario, dv)).map(toInspectRecord);
  expect(plain[1].messages.at(-1)?.content).toContain('| [[Projects/Greenhouse/Plan.md\\|Plan]] | active |');
  const reloads: Reloaded[] = [];
  const reloaded = (
    await replayScenario(scenario, dv, {
      beforeTurn: async (engine: PromptContextEngine, _turn, overlay) => {
        const r = await reloadThroughNote(engine, overlay, { id: 'chat-kinds', provider: 'openai', model: scenario.model });
        reloads.push(r);
        expect(r.warnings).toEqual([]);
        return r.engine;
      },
    })
  ).map(toInspectRecord);
  for (let i = 0; i < 3; i++) {
    expect(reloaded[i]).toEqual(plain[i]);
    expect(reloads[i].issues).toEqual([]);
  }
  expect(reloads[3].edited).toEqual(['Projects/Greenhouse/Board.canvas']);
});

test('the chat note names the canvas and each Dataview block, and reads back byte-identical', async () => {
  const { scenario, vault } = loadScenario(file);
  const { conversation } = await recordScenarioOver(scenario, withDataview(vault));
  const text = encodeChatNote(conversation);
  expect(text).toContain('> - [[Projects/Greenhouse/Board.canvas]]');
  expect(text).toMatch(/> - \[\[Dashboards\/Greenhouse dashboard\.md\]\] · Dataview `dataview-[0-9a-f]{12}`/);
  expect(text).toContain('"kind":"canvas","title":"Board","source":"Projects/Greenhouse/Board.canvas"');
  const decoded = decodeChatNote(text, { id: 'unused', now: 0 });
  expect(decoded.warnings).toEqual([]);
  expect(decoded.conversation).toEqual(conversation);
  expect(encodeChatNote(decoded.conversation)).toBe(text);
});

test("a turn's canvas chip is kept in the chat note and read back as it was (a failed turn is retried with it)", async () => {
  const { scenario, vault } = loadScenario(file);
  const { conversation } = await recordScenarioOver(scenario, vault);
  const chips = [{ kind: 'canvas' as const, path: 'Projects/Greenhouse/Board.canvas' }, { kind: 'note' as const, path: 'Dashboards/Greenhouse dashboard.md' }];
  const withChips = { ...conversation, turns: conversation.turns.map((t, i) => (i === 0 ? { ...t, chips } : t)) };
  const text = encodeChatNote(withChips);
  expect(text).toContain('"chips":[{"kind":"canvas","path":"Projects/Greenhouse/Board.canvas"}');
  const decoded = decodeChatNote(text, { id: 'unused', now: 0 });
  expect(decoded.warnings).toEqual([]);
  expect(decoded.conversation.turns[0].chips).toEqual(chips);
  expect(encodeChatNote(decoded.conversation)).toBe(text);
});
