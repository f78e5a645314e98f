/* global describe, test, expect, beforeAll, afterAll -- jest globals: the lint config declares no jest environment */
import type { CompiledRequest } from '../../../src/core/compiler/messageCompiler';
import { DEFAULT_SYSTEM_PROMPT } from '../../../src/core/systemPrompt';
import type { ProviderServer, RecordedRequest } from '../../../testing/providerServer/index';
import { isProviderError } from '../../../src/providers/errors';
import { createClaudeCodeProvider } from '../../../src/providers/claudeCode';
import type { ChatProvider, ChatResult } from '../../../src/core/ports/chatModel';
import { NOTES, noteBody, SCENARIO, TestConversation, type TurnRecord, type TurnSender, type TurnStep } from '../../core/compiler/conversation';
import { occurrences } from '../../core/compiler/sessionMemory';
import { VAULT } from '../../helpers/paths';
import { useProviderServer } from '../../helpers/providerServer';
import { CLAUDE_BIN, claudeUnavailable, messagesText, offlineCli, systemText, userTexts, type WireRequest } from './cliHarness';

const unavailable = claudeUnavailable();
if (unavailable) {
  console.warn(`\n!!!!!!!!\n!!! SKIPPING the Claude Code end-to-end tests: ${unavailable}\n!!!!!!!!\n`);
}
const suite = unavailable ? describe.skip : describe;

const MODEL = 'claude-sonnet-4-5';

/** Generation requests the server accepted (the CLI retries some shapes the server refuses). */
function accepted(requests: readonly RecordedRequest[]): WireRequest[] {
  return requests
    .filter((r) => r.api === 'anthropic' && /\/messages$/.test(r.path))
    .map((r) => r.body as WireRequest)
    .filter((b) => Array.isArray(b.messages) && b.messages.every((m) => m.role === 'user' || m.role === 'assistant'));
}

/** Times the question was asked: the server's replies quote it as `Question: <q>.`, which is not asking. */
const asks = (text: string, question: string) => occurrences(text, question) - occurrences(text, `Question: ${question}`);

const bytes = (messages: readonly { content: string }[]) => messages.reduce((n, m) => n + Buffer.byteLength(m.content), 0);

suite('the real Claude Code CLI, offline against the local server', () => {
  let server: ProviderServer;
  let cli: ReturnType<typeof offlineCli>;
  let provider: ChatProvider;
  let sender: TurnSender;
  const convo = new TestConversation(VAULT, MODEL);
  const turns: Array<TurnRecord & { requests: WireRequest[]; tokens: string[] }> = [];
  const results: ChatResult[] = [];

  function senderFor(p: ChatProvider, tokens: string[] = [], signal?: AbortSignal): TurnSender {
    return {
      capabilities: p.capabilities,
      target: p.config,
      send: async (compiled: CompiledRequest) => {
        const result = await p.send({
          messages: compiled.messages,
          breakpoints: compiled.breakpoints,
          ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
          ...(signal ? { signal } : {}),
          onToken: (t) => tokens.push(t),
        });
        results.push(result);
        return result;
      },
    };
  }

  // The turns run once in beforeAll; the tests read what the server recorded, so no reset between them.
  useProviderServer((s) => (server = s), { resetEachTest: false });
  beforeAll(async () => {
    cli = offlineCli(server.url);
    provider = createClaudeCodeProvider(
      { id: 'claude-code', kind: 'claude-code', model: MODEL, executable: CLAUDE_BIN, cwd: cli.cwd },
      { spawn: cli.spawn, env: cli.env },
    );
    sender = senderFor(provider);
    // Three turns through engine + compiler + provider + the real CLI: three CLI runs.
    for (const step of SCENARIO) {
      const before = server.requests.length;
      const tokens: string[] = [];
      const record = await convo.turn(step, senderFor(provider, tokens));
      if (record.error !== undefined) throw new Error('turn failed', { cause: record.error });
      turns.push({ ...record, requests: accepted(server.requests.slice(before)), tokens });
    }
  }, 120_000);

  afterAll(() => {
    cli?.cleanup();
  });

  test('turn 1 starts a session in full mode; turns 2 and 3 resume it with deltas', () => {
    expect(turns.map((t) => t.compiled.mode)).toEqual(['full', 'delta', 'delta']);
    expect(cli.runs.slice(0, 3).map((args) => args.includes('--resume'))).toEqual([false, true, true]);
    for (const t of turns) {
      expect(t.requests).toHaveLength(1);
      expect(t.tokens.join('')).toBe(t.reply);
    }
    // The session id moves on with each successful (forked) run and is what the next turn resumes.
    expect(turns[1].compiled.sessionId).toBe(results[0].sessionId);
    expect(turns[2].compiled.sessionId).toBe(results[1].sessionId);
    expect(convo.session?.sessionId).toBe(results[2].sessionId);
    expect(convo.session?.cursor).toBe(turns[2].assembly.messages.length);
    // The server's deterministic reply: it saw all three notes and this turn's question.
    expect(turns[2].reply).toBe(`Seen context: ${NOTES.join(', ')}. Question: ${SCENARIO[2].user}.`);
    const figures = turns.map((t, i) => ({
      turn: i + 1,
      mode: t.compiled.mode,
      statelessBytes: bytes(t.assembly.messages),
      sentBytes: bytes(t.compiled.messages),
      serverMessages: t.requests[0].messages.length,
      serverBodyBytes: Buffer.byteLength(JSON.stringify(t.requests[0])),
    }));
    console.debug(`Claude Code end to end, per turn:\n${JSON.stringify(figures, null, 1)}`);
    expect(figures[2].sentBytes).toBeLessThan(figures[2].statelessBytes / 2);
  });

  test('no duplicated history: every earlier user message reaches the model exactly once', () => {
    for (const [n, t] of turns.entries()) {
      const body = t.requests[0];
      const text = messagesText(body);
      // (Counted in user messages: the server's replies quote each question.)
      const asked = userTexts(body).join('\n');
      for (const step of SCENARIO.slice(0, n + 1)) expect(asks(asked, step.user)).toBe(1);
      for (const earlier of turns.slice(0, n)) expect(occurrences(text, earlier.reply!)).toBe(1);
      // The session's history alternates user/assistant: one user message per Strata turn.
      const users = userTexts(body);
      expect(users).toHaveLength(n + 1);
      users.forEach((u, i) => expect(u.endsWith(SCENARIO[i].user)).toBe(true));
    }
  });

  test("each note's content reaches the model exactly once across the conversation", () => {
    for (const [n, t] of turns.entries()) {
      const text = messagesText(t.requests[0]);
      NOTES.forEach((note, k) => expect(occurrences(text, noteBody(note))).toBe(k <= n ? 1 : 0));
    }
    // Strata sent each note once in all: in the turn it entered; turn 3 only referenced Comments.md.
    const sent = turns.map((t) => t.compiled.messages.map((m) => m.content).join('\n'));
    NOTES.forEach((note, k) => expect(sent.map((s) => occurrences(s, noteBody(note)))).toEqual([0, 1, 2].map((i) => (i === k ? 1 : 0))));
    expect(sent[2]).toContain(`- ${NOTES[0]}`);
  });

  test('the static system prompt is passed once, on turn 1, and never resent by Strata', () => {
    const withPrompt = cli.runs.slice(0, 3).map((args) => args.includes('--system-prompt'));
    expect(withPrompt).toEqual([true, false, false]);
    const firstRun = cli.runs[0];
    expect(firstRun[firstRun.indexOf('--system-prompt') + 1]).toContain(DEFAULT_SYSTEM_PROMPT);
    for (const t of turns) {
      const body = t.requests[0];
      // The CLI keeps it with the session (system field, once) ...
      expect(occurrences(systemText(body), DEFAULT_SYSTEM_PROMPT)).toBe(1);
      // ... and it never travels as conversation content.
      expect(occurrences(messagesText(body), DEFAULT_SYSTEM_PROMPT)).toBe(0);
    }
    for (const t of turns.slice(1)) expect(t.compiled.messages.every((m) => m.role !== 'system')).toBe(true);
  });

  test('dynamic fragments go as [System Context] with their turn', () => {
    const text = messagesText(turns[2].requests[0]);
    expect(occurrences(text, '[System Context]: The open note is Queries/Limiting.md.')).toBe(1);
    expect(occurrences(text, '[System Context]: The open note is Queries/Backlinks.md.')).toBe(1);
    const last = userTexts(turns[2].requests[0]).pop()!;
    expect(last).toContain('[System Context]: The open note is Queries/Backlinks.md.');
    expect(last).toContain(noteBody(NOTES[2]));
    expect(last.endsWith(SCENARIO[2].user)).toBe(true);
  });

  test("usage comes from the CLI's result event, normalised", () => {
    expect(results).toHaveLength(3);
    for (const r of results) {
      expect(r.usage.inputTokens).toBeGreaterThan(0);
      expect(r.usage.outputTokens).toBeGreaterThan(0);
      expect(r.usage.cachedReadTokens + r.usage.cacheWriteTokens).toBeLessThanOrEqual(r.usage.inputTokens);
    }
    // The CLI places cache breakpoints; the server's Anthropic cache rule then serves the resumed prefix.
    expect(results[2].usage.cachedReadTokens).toBeGreaterThan(0);
    console.debug(`usage per turn: ${JSON.stringify(results.map((r) => r.usage))}`);
  });

  test('counter-example: bypassing the compiler on a resumed session duplicates history', async () => {
    const before = server.requests.length;
    const assembly = await convo.assemble({ user: 'Summarize what we covered.', context: [] });
    const proper = convo.compile(assembly, sender);
    expect(proper.mode).toBe('delta');
    const result = await provider.send({ messages: assembly.messages, sessionId: proper.sessionId });
    const [body] = accepted(server.requests.slice(before));
    const text = messagesText(body);
    const asked = userTexts(body).join('\n');
    for (const step of SCENARIO) expect(asks(asked, step.user)).toBe(2);
    for (const note of NOTES) expect(occurrences(text, noteBody(note))).toBe(2);
    // The static prompt now rides in the conversation too, on top of the session's system field.
    expect(occurrences(text, DEFAULT_SYSTEM_PROMPT)).toBe(1);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    // The bypass ran in a fork: the conversation's own session is untouched.
    expect(result.sessionId).not.toBe(proper.sessionId);
  }, 60_000);

  test('abort kills the run and keeps the cursor; the retry resends the same delta, once', async () => {
    const step: TurnStep = { user: 'Which of these applies to grouping?', context: [] };
    const stored = convo.session;
    server.injectFault({ kind: 'hang' });
    const controller = new AbortController();
    const before = server.requests.length;
    const pending = convo.turn(step, senderFor(provider, [], controller.signal));
    let finished = false;
    void pending.then(() => (finished = true));
    // Abort once the CLI's request is hanging at the server (or the run ended early: the asserts say so).
    while (server.requests.length === before && !finished) await new Promise((resolve) => setTimeout(resolve, 25));
    controller.abort();
    const aborted = await pending;
    expect(isProviderError(aborted.error) && aborted.error.kind).toBe('aborted');
    expect(convo.session).toBe(stored);
    expect(convo.engine.turnCount).toBe(3);
    server.clearFaults();

    const retryFrom = server.requests.length;
    const retried = await convo.turn(step, sender);
    expect(retried.error).toBeUndefined();
    expect(retried.compiled).toEqual(aborted.compiled);
    const [body] = accepted(server.requests.slice(retryFrom));
    const asked = userTexts(body).join('\n');
    // The aborted attempt left nothing behind in the session the retry resumed.
    expect(asks(asked, step.user)).toBe(1);
    for (const s of SCENARIO) expect(asks(asked, s.user)).toBe(1);
    expect(messagesText(body)).not.toContain('No response requested.');
    expect(convo.session?.cursor).toBe(retried.assembly.messages.length);
  }, 60_000);
});
