/**
 * The prefix-break notes in plain words: every reason the engine (prefix.ts) and the message
 * compiler's session rules can give has words (a new reason without them fails here), the words
 * name no code, and the technical reason stays available for the tooltip.
 */
import { FULL_MODE_CODES } from '../../../src/core/compiler/sessionRules';
import type { ChatTurn, EnvelopeRecord } from '../../../src/core/conversation/model';
import { PREFIX_CHANGE_REASONS } from '../../../src/core/engine/types';
import { breakNoteOf, names, PREFIX_BREAK_WORDS, SESSION_BREAK_WORDS, WORDED } from '../../../src/obsidian/view/breakNotes';

const CODE = /[a-z]+-[a-z]+|\bL\d\b/;

function turn(envelope: Partial<EnvelopeRecord>): ChatTurn {
  const layer = { tokens: 0 };
  return {
    text: 'Q',
    reply: 'A',
    status: 'complete',
    at: 1,
    dynamic: [],
    tools: [],
    referenced: [],
    problems: [],
    envelope: {
      layers: { L1: layer, L2: layer, L3: layer, L4: layer, L5: layer },
      promptTokens: 10,
      prefixChange: null,
      full: [],
      freshness: [],
      removed: [],
      ...envelope,
    },
  };
}

describe('every reason has plain words', () => {
  test('the lists the view words are the engine\'s and the compiler\'s', () => {
    expect(WORDED.prefix).toBe(PREFIX_CHANGE_REASONS);
    expect(WORDED.session).toBe(FULL_MODE_CODES);
  });

  test.each([...PREFIX_CHANGE_REASONS])('prefix change %s', (reason) => {
    const words = PREFIX_BREAK_WORDS[reason];
    expect(words).toBeDefined();
    const because = words.because('notes changed since the chat was saved: Projects/Greenhouse/Plan.md');
    expect(because.length).toBeGreaterThan(5);
    expect(because).not.toMatch(CODE);
    expect(words.layer.length).toBeGreaterThan(0);
  });

  test.each([...FULL_MODE_CODES])('session rule %s', (code) => {
    const words = SESSION_BREAK_WORDS[code];
    expect(words).toBeDefined();
    const because = words.because(`${code}: some detail`);
    expect(because.length).toBeGreaterThan(5);
    expect(because).not.toMatch(CODE);
  });

  test('no reason in the tables that the engine or the compiler does not have', () => {
    expect(Object.keys(PREFIX_BREAK_WORDS).sort()).toEqual([...PREFIX_CHANGE_REASONS].sort());
    expect(Object.keys(SESSION_BREAK_WORDS).sort()).toEqual([...FULL_MODE_CODES].sort());
  });
});

describe('breakNoteOf', () => {
  test('a model switch: plain words shown, the code, detail, and request in the technical reason', () => {
    const note = breakNoteOf(
      turn({ prefixChange: { reason: 'model-switch', detail: 'gpt-4o → gpt-4.1: the provider cache is per model' }, compile: { mode: 'full', reason: 'stateless-provider: the provider keeps no conversation between calls' } }),
      false,
    );
    expect(note?.text).toBe("The provider's cache restarts because you switched model");
    expect(note?.technical).toBe(
      [
        'Prefix break (model-switch) in the whole request (the cache is per model): gpt-4o → gpt-4.1: the provider cache is per model',
        'Request: full (stateless-provider: the provider keeps no conversation between calls)',
      ].join('\n'),
    );
  });

  test('an edited note and a removed one are named', () => {
    expect(breakNoteOf(turn({ prefixChange: { reason: 'note-edited', detail: 'notes changed since the chat was saved: Projects/Greenhouse/Plan.md' } }), false)?.text).toBe(
      "The provider's cache restarts because you edited “Plan”",
    );
    expect(breakNoteOf(turn({ prefixChange: { reason: 'library-item-removed', detail: 'removed from the library: A.md, b/B.md, C.md, D.md' } }), false)?.text).toBe(
      "The provider's cache restarts because you removed “A”, “B” and 2 more notes from the notes in this chat",
    );
    expect(breakNoteOf(turn({ prefixChange: { reason: 'condensed', detail: 'the conversation was condensed: turns 1-4 replaced by a summary' } }), false)?.text).toBe(
      "The provider's cache restarts because older messages were condensed",
    );
    expect(names('x: Plan.md, Ventilation.md')).toBe('“Plan” and “Ventilation”');
  });

  test('a session that starts again is said when no prefix break says why; not on the first answer nor for a stateless provider', () => {
    const lost = turn({ compile: { mode: 'full', reason: 'no-session: no provider session yet: this call starts one' } });
    expect(breakNoteOf(lost, true)).toBeNull();
    expect(breakNoteOf(lost, false)?.text).toBe("The provider's session restarts because the provider's earlier session is gone, so the whole conversation is sent again");
    expect(breakNoteOf(lost, false)?.technical).toMatch(/^Session restart \(no-session\) in the whole request: no provider session yet/);
    expect(breakNoteOf(turn({ compile: { mode: 'full', reason: 'stateless-provider: the provider keeps no conversation between calls' } }), false)).toBeNull();
    expect(breakNoteOf(turn({ compile: { mode: 'delta', reason: 'session-active: resuming' } }), false)).toBeNull();
    expect(breakNoteOf(turn({}), false)).toBeNull();
  });
});
