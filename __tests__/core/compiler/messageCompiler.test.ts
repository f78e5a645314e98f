/* global describe, test, expect -- jest globals: the lint config declares no jest environment */
import { placeCacheBreakpoints } from '../../../src/core/compiler/cacheBreakpoints';
import { deltaUserMessage, mergeConsecutiveUsers } from '../../../src/core/compiler/delta';
import { advance, compile } from '../../../src/core/compiler/messageCompiler';
import { forgetSession, freshSession, parseProviderSession, type ProviderSession } from '../../../src/core/compiler/session';
import { messageHash } from '../../../src/core/compiler/sessionRules';
import { DEFAULT_MASKING } from '../../../src/core/engine/masking';
import { DEFAULT_SYSTEM_PROMPT } from '../../../src/core/systemPrompt';
import { NOTES, noteBody, SCENARIO, TestConversation } from './conversation';
import { joined, occurrences, SessionMemoryProvider } from './sessionMemory';

const CLAUDE = { id: 'claude-code', model: 'claude-sonnet-4-5', cwd: '/vault' };
const OPENAI = { id: 'openai', model: 'claude-sonnet-4-5' };


async function playTurns(convo: TestConversation, provider: SessionMemoryProvider, steps = SCENARIO) {
  const records = [];
  for (const step of steps) {
    const record = await convo.turn(step, provider);
    if (record.error !== undefined) throw new Error('turn failed', { cause: record.error });
    records.push(record);
  }
  return records;
}

describe('full mode', () => {
  test('a stateless provider gets the assembly as it is, with cache breakpoints', async () => {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(OPENAI, false);
    const records = await playTurns(convo, provider);
    for (const { assembly, compiled } of records) {
      expect(compiled.mode).toBe('full');
      expect(compiled.reason.code).toBe('stateless-provider');
      expect(compiled.messages).toEqual(assembly.messages);
      expect(compiled.breakpoints).toEqual(placeCacheBreakpoints(assembly.messages));
      expect(compiled.sessionId).toBeUndefined();
    }
    expect(convo.session).toEqual(freshSession(OPENAI));
  });

  test('a session-stateful provider without a session gets the full request and starts one', async () => {
    const convo = new TestConversation();
    const assembly = await convo.assemble(SCENARIO[0]);
    const compiled = compile({ assembly, capabilities: { sessionResumption: true }, target: CLAUDE, session: null });
    expect(compiled.mode).toBe('full');
    expect(compiled.reason.code).toBe('no-session');
    expect(compiled.messages).toEqual(assembly.messages);
    expect(compiled.messages[0].content).toContain(DEFAULT_SYSTEM_PROMPT);
  });
});

describe('delta mode over a real three-turn conversation', () => {
  test('each turn sends only what the session has not seen', async () => {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    const [t1, t2, t3] = await playTurns(convo, provider);

    expect(t1.compiled.mode).toBe('full');
    for (const t of [t2, t3]) {
      expect(t.compiled.mode).toBe('delta');
      expect(t.compiled.reason.code).toBe('session-active');
      expect(t.compiled.sessionId).toBe('session-1');
      expect(t.compiled.breakpoints).toEqual([]);
      // One user message: [System Context] first, the question last.
      expect(t.compiled.messages).toHaveLength(1);
      expect(t.compiled.messages[0].role).toBe('user');
    }
    const m2 = t2.compiled.messages[0].content;
    const m3 = t3.compiled.messages[0].content;
    expect(m2.startsWith('[System Context]: The open note is Queries/Limiting.md.')).toBe(true);
    expect(m3.startsWith('[System Context]: The open note is Queries/Backlinks.md.')).toBe(true);
    expect(m2.endsWith(SCENARIO[1].user)).toBe(true);
    expect(m3.endsWith(SCENARIO[2].user)).toBe(true);
    // The final user message is this turn's L3 + L5, exactly.
    expect(m3).toBe(deltaUserMessage(t3.assembly).content);
    for (const s of t3.assembly.envelope.layers.L3.segments) expect(m3).toContain(s.text);

    // Static system prompt not resent; earlier user messages and replies not resent.
    for (const m of [m2, m3]) {
      expect(m).not.toContain(DEFAULT_SYSTEM_PROMPT);
      expect(m).not.toContain(SCENARIO[0].user);
      expect(m).not.toContain('Reply 1.');
    }
    expect(m3).not.toContain(SCENARIO[1].user);
    // Items: the new one travels in full; the one that entered on turn 1 only by reference.
    expect(m2).toContain(noteBody(NOTES[1]));
    expect(m2).not.toContain(noteBody(NOTES[0]));
    expect(m3).toContain(noteBody(NOTES[2]));
    expect(m3).not.toContain(noteBody(NOTES[0]));
    expect(m3).not.toContain(noteBody(NOTES[1]));
    expect(m3).toContain(`- ${NOTES[0]}`);
    // Dynamic fragments go as [System Context], not as the stateless <turn_context> block.
    expect(m3).not.toContain('<turn_context>');

    // Sent bytes: the deltas are a fraction of the stateless requests.
    const bytes = (ms: readonly { content: string }[]) => ms.reduce((n, m) => n + Buffer.byteLength(m.content), 0);
    expect(bytes(t3.compiled.messages)).toBeLessThan(bytes(t3.assembly.messages) / 2);
  });

  test('no duplicated history: the session holds every message, note and the system prompt exactly once', async () => {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    await playTurns(convo, provider);
    const lastView = joined(provider.seen[2]);
    expect(occurrences(lastView, DEFAULT_SYSTEM_PROMPT)).toBe(1);
    for (const step of SCENARIO) expect(occurrences(lastView, step.user)).toBe(1);
    for (const note of NOTES) expect(occurrences(lastView, noteBody(note))).toBe(1);
    expect(occurrences(lastView, 'Reply 1.')).toBe(1);
    expect(occurrences(lastView, 'Reply 2.')).toBe(1);
    // The session's view has the same shape as the stateless request: same roles, same count.
    const stateless = convo.engine.completedTurns().length;
    expect(stateless).toBe(3);
    expect(provider.seen[2].map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
  });

  test('counter-example: the full request on a resumed session duplicates history', async () => {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    await playTurns(convo, provider, SCENARIO.slice(0, 2));
    const assembly = await convo.assemble(SCENARIO[2]);
    const proper = convo.compile(assembly, provider);
    // Bypass the compiler: full messages, but resuming the session anyway.
    const bypass = { ...proper, mode: 'full' as const, messages: assembly.messages };
    await provider.send(bypass);
    const view = joined(provider.seen[2]);
    expect(occurrences(view, SCENARIO[0].user)).toBe(2);
    expect(occurrences(view, SCENARIO[1].user)).toBe(2);
    expect(occurrences(view, DEFAULT_SYSTEM_PROMPT)).toBe(2);
    expect(occurrences(view, noteBody(NOTES[0]))).toBe(2);
  });
});

describe('cursor', () => {
  async function twoTurns() {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    const [t1, t2] = await playTurns(convo, provider, SCENARIO.slice(0, 2));
    return { convo, provider, t1, t2 };
  }

  test('advances to the reply after a complete, successful response', async () => {
    const { convo, t1, t2 } = await twoTurns();
    expect(t1.assembly.messages).toHaveLength(2);
    expect(t2.assembly.messages).toHaveLength(4);
    const session = convo.session!;
    expect(session.sessionId).toBe('session-1');
    // The provider has seen messages 0..4: the four of turn 2's request and its reply.
    expect(session.cursor).toBe(4);
    const next = await convo.assemble(SCENARIO[2]);
    expect(next.messages).toHaveLength(6);
    expect(compile({ assembly: next, capabilities: { sessionResumption: true }, target: CLAUDE, session }).from).toBe(5);
  });

  test('the message hash used for the cursor matches the engine', async () => {
    const { t2 } = await twoTurns();
    expect(t2.assembly.messages.map(messageHash)).toEqual(t2.assembly.messageHashes);
  });

  test.each([
    ['error', new Error('HTTP 500 from the provider')],
    ['abort', Object.assign(new Error('aborted'), { name: 'AbortError' })],
  ])('stays on %s, and the retry resends the same delta', async (_kind, failure) => {
    const { convo, provider } = await twoTurns();
    const before = convo.session;
    provider.failNext = failure;
    const failed = await convo.turn(SCENARIO[2], provider);
    expect(failed.error).toBe(failure);
    expect(convo.session).toBe(before);
    expect(convo.engine.turnCount).toBe(2);
    const retried = await convo.turn(SCENARIO[2], provider);
    expect(retried.error).toBeUndefined();
    expect(retried.compiled).toEqual(failed.compiled);
    expect(retried.compiled.mode).toBe('delta');
    expect(convo.session?.cursor).toBe(6);
  });

  test('a provider that returns no session id leaves nothing to resume', async () => {
    const convo = new TestConversation();
    const assembly = await convo.assemble(SCENARIO[0]);
    const compiled = compile({ assembly, capabilities: { sessionResumption: true }, target: CLAUDE });
    expect(advance(compiled, assembly, { text: 'ok' })).toEqual(freshSession(CLAUDE));
  });

  test('the session survives JSON (stored in the chat note) and bad stored data is dropped', async () => {
    const { convo } = await twoTurns();
    const stored = JSON.parse(JSON.stringify(convo.session)) as unknown;
    expect(parseProviderSession(stored)).toEqual(convo.session);
    expect(parseProviderSession({ providerId: 'x' })).toBeNull();
    expect(parseProviderSession('nonsense')).toBeNull();
    expect(parseProviderSession({ providerId: 'x', model: 'm', cursor: -3 })).toEqual({ providerId: 'x', model: 'm' });
  });
});

describe('invalidation: each rule sends the full request, starts a new session and says why', () => {
  async function resumed(): Promise<{ convo: TestConversation; provider: SessionMemoryProvider; session: ProviderSession }> {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    await playTurns(convo, provider, SCENARIO.slice(0, 2));
    return { convo, provider, session: convo.session! };
  }

  async function expectFull(convo: TestConversation, session: ProviderSession | null, code: string, target = CLAUDE) {
    const assembly = await convo.assemble(SCENARIO[2]);
    const compiled = compile({ assembly, capabilities: { sessionResumption: true }, target, session });
    expect(compiled.reason.code).toBe(code);
    expect(compiled.mode).toBe('full');
    expect(compiled.messages).toEqual(assembly.messages);
    expect(compiled.sessionId).toBeUndefined();
    expect(compiled.session).toEqual(freshSession(target));
    expect(compiled.reason.detail.length).toBeGreaterThan(10);
    return compiled;
  }

  test('provider changed', async () => {
    const { convo, session } = await resumed();
    await expectFull(convo, session, 'provider-changed', { ...CLAUDE, id: 'claude-code-2' });
  });

  test('model changed', async () => {
    const { convo, session } = await resumed();
    await expectFull(convo, session, 'model-changed', { ...CLAUDE, model: 'claude-opus-4-1' });
  });

  test('CLI working directory changed', async () => {
    const { convo, session } = await resumed();
    await expectFull(convo, session, 'cwd-changed', { ...CLAUDE, cwd: '/elsewhere' });
  });

  test('no cursor', async () => {
    const { convo, session } = await resumed();
    const { cursor: _c, ...noCursor } = session;
    await expectFull(convo, noCursor, 'no-cursor');
  });

  test('a cursor beyond the message count falls back to full mode', async () => {
    const { convo, session } = await resumed();
    await expectFull(convo, { ...session, cursor: 99 }, 'cursor-beyond-count');
    // The cursor may never cover this turn's own message either.
    await expectFull(convo, { ...session, cursor: 5 }, 'cursor-beyond-count');
  });

  test('history edited before the cursor (edit and resend)', async () => {
    const { convo, session } = await resumed();
    convo.engine.truncate(1);
    const assembly = await convo.assemble({ ...SCENARIO[1], user: 'And how do I limit the results, per group?' });
    expect(assembly.messages).toHaveLength(4);
    const compiled = compile({ assembly, capabilities: { sessionResumption: true }, target: CLAUDE, session });
    expect(compiled.mode).toBe('full');
    expect(compiled.reason.code).toBe('history-edited');
    expect(compiled.reason.detail).toContain('truncated to 1 turn');
  });

  test('history edited before the cursor, caught by the stored hashes alone', async () => {
    const { convo, session } = await resumed();
    // Another conversation's session with the same shape: the engine sees no prefix change, the hashes do.
    const other = new TestConversation();
    await playTurns(other, new SessionMemoryProvider(CLAUDE), [
      { ...SCENARIO[0], user: 'A different first question?' },
      SCENARIO[1],
    ]);
    expect(other.session?.cursor).toBe(session.cursor);
    const assembly = await convo.assemble(SCENARIO[2]);
    expect(assembly.prefixChange).toBeNull();
    const compiled = compile({ assembly, capabilities: { sessionResumption: true }, target: CLAUDE, session: other.session });
    expect(compiled.reason.code).toBe('history-edited');
    expect(compiled.mode).toBe('full');
  });

  test('conversation condensed (compaction)', async () => {
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    await playTurns(convo, provider, SCENARIO.slice(0, 1));
    // A note changes between turns: its new version enters; a compaction then rewrites history.
    const [item] = (await convo.resolver.resolve([{ kind: 'note', path: NOTES[0] }])).items;
    const changed = { ...item, content: `${item.content}\nOne more line.`, hash: 'changed' };
    const a2 = convo.engine.assemble({ userText: 'Changed?', items: [changed], fragments: convo.staticFragments, model: convo.model });
    const c2 = compile({ assembly: a2, capabilities: provider.capabilities, target: CLAUDE, session: convo.session });
    expect(c2.mode).toBe('delta');
    convo.session = advance(c2, a2, await provider.send(c2));
    convo.engine.commit(a2, 'Yes.');
    convo.engine.condense({ through: 1, kind: 'summary', text: 'They asked about the notes.', maskedThrough: 2, masking: DEFAULT_MASKING });
    await expectFull(convo, convo.session, 'condensed');
  });

  test('settings changed (static system prompt): the session holds the old one', async () => {
    const { convo, session } = await resumed();
    convo.staticFragments = [{ id: 'system', lifecycle: 'static', text: 'You are a terse assistant.' }];
    const compiled = await expectFull(convo, session, 'prefix-changed');
    expect(compiled.reason.detail).toContain('settings-changed');
  });

  test('an item removed from the library', async () => {
    const { convo, session } = await resumed();
    expect(convo.engine.removeFromLibrary(NOTES[1])).toBe(true);
    const compiled = await expectFull(convo, session, 'prefix-changed');
    expect(compiled.reason.detail).toContain('library-item-removed');
  });

  test('the provider lost the session (ProviderError.sessionInvalid): forget it, send in full', async () => {
    const { convo, session } = await resumed();
    const forgotten = forgetSession(session);
    expect(forgotten).toEqual(freshSession(CLAUDE));
    await expectFull(convo, forgotten, 'no-session');
  });

  test('after an invalidation the new session resumes normally', async () => {
    const { convo, provider } = await resumed();
    const moved = { ...CLAUDE, cwd: '/moved' };
    const sender = { capabilities: provider.capabilities, target: moved, send: (c: Parameters<SessionMemoryProvider['send']>[0]) => provider.send(c) };
    const t3 = await convo.turn(SCENARIO[2], sender);
    expect(t3.compiled.reason.code).toBe('cwd-changed');
    expect(convo.session).toMatchObject({ cwd: '/moved', sessionId: 'session-3', cursor: 6 });
    const t4 = await convo.turn({ user: 'One more?', context: [] }, sender);
    expect(t4.compiled.mode).toBe('delta');
    expect(t4.compiled.messages).toEqual([{ role: 'user', content: 'One more?' }]);
  });
});

describe('alternation', () => {
  test('consecutive user contents merge; unseen earlier turns keep their rendering', async () => {
    expect(
      mergeConsecutiveUsers([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
        { role: 'user', content: 'd' },
      ]),
    ).toEqual([
      { role: 'user', content: 'a\n\nb' },
      { role: 'assistant', content: 'c' },
      { role: 'user', content: 'd' },
    ]);
    // A session that saw only turn 1: turn 3's delta carries turn 2 (with its note) and turn 3.
    const convo = new TestConversation();
    const provider = new SessionMemoryProvider(CLAUDE);
    await playTurns(convo, provider, SCENARIO.slice(0, 1));
    const afterTurn1 = convo.session!;
    await playTurns(convo, new SessionMemoryProvider(OPENAI, false), SCENARIO.slice(1, 2));
    const assembly = await convo.assemble(SCENARIO[2]);
    // The engine's prefix still extends, so turn 1's session can catch up.
    const compiled = compile({ assembly, capabilities: { sessionResumption: true }, target: CLAUDE, session: afterTurn1 });
    expect(compiled.mode).toBe('delta');
    expect(compiled.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(compiled.messages[0]).toEqual(assembly.messages[3]);
    expect(compiled.messages[0].content).toContain(noteBody(NOTES[1]));
    expect(compiled.messages[2].content).not.toContain(noteBody(NOTES[0]));
  });
});
