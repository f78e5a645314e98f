import fc from 'fast-check';
import type { ContextChip } from '../../../src/core/context/items';
import { PROBLEM_REASONS } from '../../../src/core/context/resolver';
import { COMPILE_MODES } from '../../../src/core/compiler/messageCompiler';
import type { ChatTurn, Conversation, EnvelopeRecord, ItemRef } from '../../../src/core/conversation/model';
import type { PendingEvent } from '../../../src/core/engine/prefix';
import { FRESHNESS_STATUSES, PREFIX_CHANGE_REASONS } from '../../../src/core/engine/types';
import { conversation } from './arbitraries';

/**
 * Chats with every piece of machine state a chat note keeps (the base arbitrary's hostile text and
 * compactions, plus envelopes, usage, cost, chips, library refs of every kind, a provider session,
 * the last request's fingerprint and pending events), for the chat data's property tests.
 */

const text = fc.string({ maxLength: 16 });
const nonBlank = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const chip: fc.Arbitrary<ContextChip> = fc.oneof(
  fc.record({ kind: fc.constant('note' as const), path: text }),
  fc.record({ kind: fc.constant('folder' as const), path: text }),
  fc.record({ kind: fc.constant('tag' as const), tag: text }),
  fc.tuple(text, maybe(text)).map(([url, title]): ContextChip => ({ kind: 'url', url, ...(title !== undefined ? { title } : {}) })),
  fc.record({ kind: fc.constant('selection' as const), path: text, fromLine: fc.nat(99), toLine: fc.nat(99) }),
);

const envelope: fc.Arbitrary<EnvelopeRecord> = fc
  .record({
    tokens: fc.array(fc.nat(200_000), { minLength: 5, maxLength: 5 }),
    promptTokens: fc.nat(1_000_000),
    prefixChange: fc.option(fc.record({ reason: fc.constantFrom(...PREFIX_CHANGE_REASONS), detail: text }), { nil: null }),
    full: fc.array(text, { maxLength: 3 }),
    freshness: fc.array(fc.record({ id: text, status: fc.constantFrom(...FRESHNESS_STATUSES), fromVersion: fc.nat(9), toVersion: maybe(fc.nat(9)) }), { maxLength: 2 }),
    removed: fc.array(text, { maxLength: 2 }),
    compile: maybe(fc.record({ mode: fc.constantFrom(...COMPILE_MODES), reason: text })),
  })
  .map(({ tokens, freshness, compile, ...e }) => ({
    ...e,
    layers: { L1: { tokens: tokens[0] }, L2: { tokens: tokens[1] }, L3: { tokens: tokens[2] }, L4: { tokens: tokens[3] }, L5: { tokens: tokens[4] } },
    freshness: freshness.map(({ toVersion, ...f }) => ({ ...f, ...(toVersion !== undefined ? { toVersion } : {}) })),
    ...(compile ? { compile } : {}),
  }));

const usage = fc.option(fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat(), cachedReadTokens: fc.nat(), cacheWriteTokens: fc.nat() }), { nil: null });

const turnState = fc.record({
  provider: maybe(nonBlank),
  chips: maybe(fc.array(chip, { maxLength: 3 })),
  referenced: fc.array(text, { maxLength: 2 }),
  problems: fc.array(fc.record({ chipId: text, reason: fc.constantFrom(...PROBLEM_REASONS), detail: text }), { maxLength: 1 }),
  envelope: maybe(envelope),
  usage: maybe(usage),
  cost: maybe(fc.constantFrom(0, 0.0012, 1.5, null)),
});

const item = fc.record({
  kind: fc.constantFrom('note' as const, 'selection' as const, 'folder' as const, 'tag' as const, 'url' as const),
  id: text,
  title: text,
  source: text,
  via: maybe(text),
  version: fc.integer({ min: 1, max: 5 }),
  hash: fc.stringMatching(/^[0-9a-f]{64}$/),
  tokens: fc.nat(50_000),
  entered: fc.nat(),
  content: text,
});

const pending: fc.Arbitrary<PendingEvent> = fc.oneof(
  fc.record({ type: fc.constant('removed' as const), id: text }),
  fc.record({ type: fc.constant('condensed' as const), through: fc.nat(9), kind: fc.constantFrom('summary' as const, 'omitted' as const) }),
  fc.record({ type: fc.constant('truncated' as const), turns: fc.nat(9) }),
  fc.record({ type: fc.constant('edited' as const), ids: fc.array(text, { maxLength: 2 }) }),
);

export const richConversation: fc.Arbitrary<Conversation> = fc
  .record({
    base: conversation,
    states: fc.array(turnState, { minLength: 5, maxLength: 5 }),
    items: fc.array(item, { maxLength: 4 }),
    session: fc.option(fc.record({ providerId: nonBlank, model: nonBlank, sessionId: maybe(text), cursor: maybe(fc.nat(40)), seenHash: maybe(text), cwd: maybe(text) }), { nil: null }),
    lastRequest: fc.option(fc.record({ count: fc.nat(99), combined: text, model: text, staticFragments: fc.array(text, { maxLength: 2 }), libraryVersions: fc.nat(9) }), { nil: null }),
    pending: fc.array(pending, { maxLength: 2 }),
    titleSource: fc.constantFrom('first-message' as const, 'generated' as const, 'user' as const),
  })
  .map(({ base, states, items, session, lastRequest, pending, titleSource }): Conversation => {
    const turns = base.turns.map((t, i): ChatTurn => {
      const { provider, chips, envelope: env, usage: u, cost, referenced, problems } = states[i % states.length];
      return {
        ...t,
        ...(provider !== undefined ? { provider } : {}),
        ...(chips !== undefined ? { chips } : {}),
        referenced,
        problems,
        ...(env !== undefined && t.status === 'complete' ? { envelope: env } : {}),
        ...(u !== undefined ? { usage: u } : {}),
        ...(cost !== undefined ? { cost } : {}),
      };
    });
    const answered = turns.filter((t) => t.status === 'complete').length;
    // Library refs enter in answered turns; ids are made unique so URL page text pairs up with its item.
    const library: ItemRef[] =
      answered === 0
        ? []
        : items.map(({ entered, content, via, id, ...r }, k) => ({
            ...r,
            id: `${id}#${k}`,
            ...(via !== undefined ? { via } : {}),
            enteredTurn: 1 + (entered % answered),
            ...(r.kind === 'url' ? { content } : {}),
          }));
    const cleanSession = session
      ? (Object.fromEntries(Object.entries(session).filter(([, v]) => v !== undefined)) as NonNullable<Conversation['session']>)
      : null;
    return { ...base, titleSource, turns, library, session: cleanSession, lastRequest, ...(pending.length > 0 ? { pending } : {}) };
  });
