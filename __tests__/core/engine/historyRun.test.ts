import fc from 'fast-check';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import { type TurnAssembly } from '../../../src/core/engine/turnAssembly';
import type { Rendering } from '../../../src/core/settings/engineChoices';
import { DEFAULT_MASKING } from '../../../src/core/engine/masking';
import type { ContextItem } from '../../../src/core/context/items';
import { sha256Hex } from '../../../src/core/hash';

/**
 * The engine extends history turn by turn (HistoryRun) instead of rendering it all each assembly.
 * Whatever happened to the chat, an assembly must be exactly what an engine restored from the same
 * state (which renders everything afresh) assembles from the same input.
 */

const item = (id: string, text: string): ContextItem => ({ id, kind: 'note', title: id, source: id, content: text, hash: sha256Hex(text) });
const NOTES = ['a.md', 'b.md', 'c.md'];

type Step =
  | { type: 'turn'; user: string; attach: string[]; edit: boolean; tool: boolean }
  | { type: 'condense'; back: number; mask: boolean }
  | { type: 'remove'; id: string }
  | { type: 'truncate'; back: number }
  | { type: 'rendering'; rendering: Rendering }
  | { type: 'measureOnly'; user: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('turn' as const), user: fc.constantFrom('Why?', 'And `code`?', 'Compare.'), attach: fc.subarray(NOTES, { maxLength: 2 }), edit: fc.boolean(), tool: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('condense' as const), back: fc.integer({ min: 0, max: 3 }), mask: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('remove' as const), id: fc.constantFrom(...NOTES) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('truncate' as const), back: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('rendering' as const), rendering: fc.constantFrom<Rendering>('transcript', 'seed') }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('measureOnly' as const), user: fc.constantFrom('draft', 'draft 2') }) },
);

function comparable(a: TurnAssembly): unknown {
  return { messages: a.messages, hashes: a.messageHashes, tokens: a.promptTokens, prefix: a.prefixHash, change: a.prefixChange, envelope: a.envelope };
}

/** The same input assembled by this engine and by one restored from its state: identical. */
function expectSameAsFresh(engine: PromptContextEngine, input: TurnInput, rendering: Rendering): TurnAssembly {
  const incremental = engine.assemble(input);
  const fresh = PromptContextEngine.restore(engine.snapshot(), { rendering }).assemble(input);
  expect(comparable(incremental)).toEqual(comparable(fresh));
  return incremental;
}

describe('history run: an assembly extended turn by turn equals one rendered afresh', () => {
  it('holds over turns, compactions, removals, truncations and rendering switches', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 14 }), (steps) => {
        let rendering: Rendering = 'transcript';
        const engine = new PromptContextEngine({ rendering });
        const versions = new Map<string, number>();
        let n = 0;
        for (const s of steps) {
          if (s.type === 'turn' || s.type === 'measureOnly') {
            n++;
            const items =
              s.type === 'turn'
                ? s.attach.map((id) => {
                    const v = (versions.get(id) ?? 0) + (s.edit ? 1 : 0);
                    versions.set(id, v);
                    return item(id, `# ${id}\n\nVersion ${v} of the note.\n\n\`\`\`\ncode line\n\`\`\``);
                  })
                : [];
            const tools = s.type === 'turn' && s.tool ? [{ name: 'localSearch', input: 'q', output: `line 1\nline 2\nline 3 of ${n}` }] : [];
            const input: TurnInput = { userText: `${s.user} ${n}`, items, tools, fragments: [{ id: 'system', lifecycle: 'static', text: 'Be brief.' }], model: 'gpt-4o' };
            const assembly = expectSameAsFresh(engine, input, rendering);
            // Measured twice (the usage line, then the send): the second is the same.
            expect(comparable(engine.assemble({ ...input }))).toEqual(comparable(assembly));
            if (s.type === 'turn') engine.commit(assembly, `Reply ${n}\n\n\`\`\`\nout\n\`\`\``);
          } else if (s.type === 'condense') {
            const turns = engine.turnCount;
            const previous = engine.currentCompaction()?.through ?? 0;
            const through = Math.max(previous, turns - s.back);
            if (through < 1 || through > turns) continue;
            engine.condense({ through, kind: 'summary', text: `Summary through ${through}.`, maskedThrough: turns, masking: s.mask ? { maxOutputLines: 1, maxCodeLines: 1 } : DEFAULT_MASKING });
          } else if (s.type === 'remove') {
            engine.removeFromLibrary(s.id);
          } else if (s.type === 'truncate') {
            engine.truncate(engine.turnCount - s.back);
          } else {
            rendering = s.rendering;
            engine.setRendering(rendering);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
