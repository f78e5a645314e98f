/* global describe, test, expect, beforeAll, afterAll -- jest globals: the lint config declares no jest environment */
/**
 * The MessageCompiler's session cursor on the real Codex CLI (engine + compiler + provider, as
 * Claude Code's end-to-end test runs it): dynamic prompt fragments travel as [System Context] with
 * their turn, the thread keeps them, and the counter-example shows what bypassing the compiler on
 * a resumed thread would send.
 */
import { promises as fs } from 'node:fs';
import type { CompiledRequest } from '../../../src/core/compiler/messageCompiler';
import type { ChatProvider } from '../../../src/core/ports/chatModel';
import { createCodexProvider } from '../../../src/providers/codex';
import type { ProviderServer } from '../../../testing/providerServer/index';
import { NOTES, noteBody, SCENARIO, TestConversation, type TurnSender } from '../../core/compiler/conversation';
import { occurrences } from '../../core/compiler/sessionMemory';
import { useProviderServer } from '../../helpers/providerServer';
import { VAULT } from '../../helpers/paths';
import { byRole, CODEX_BIN, codexUnavailable, MODEL, offlineCodex, type ResponsesBody } from './codexHarness';

const unavailable = codexUnavailable();
if (unavailable) console.warn(`\n!!! SKIPPING the Codex CLI session tests: ${unavailable}\n`);
const suite = unavailable ? describe.skip : describe;

suite('the MessageCompiler on the real Codex CLI', () => {
  let server: ProviderServer;
  let cx: ReturnType<typeof offlineCodex>;
  let provider: ChatProvider;
  const convo = new TestConversation(VAULT, MODEL);
  const bodies: ResponsesBody[] = [];
  const modes: string[] = [];

  const sender = (): TurnSender => ({
    capabilities: provider.capabilities,
    target: provider.config,
    send: (compiled: CompiledRequest) =>
      provider.send({ messages: compiled.messages, ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}) }),
  });

  useProviderServer((s) => (server = s), { resetEachTest: false });
  beforeAll(async () => {
    cx = offlineCodex(server.url);
    provider = createCodexProvider(
      { id: 'codex', kind: 'codex', model: MODEL, baseUrl: `${server.url}/v1`, executable: CODEX_BIN },
      { spawn: cx.spawn, files: fs, home: cx.home, env: cx.env },
    );
    for (const step of SCENARIO) {
      const before = server.requests.length;
      const record = await convo.turn(step, sender());
      if (record.error !== undefined) throw new Error('turn failed', { cause: record.error });
      modes.push(record.compiled.mode);
      bodies.push(...server.requests.slice(before).filter((r) => r.api === 'openai-responses').map((r) => r.body as ResponsesBody));
    }
  }, 120_000);
  afterAll(() => cx?.cleanup());

  test('full, then deltas; each dynamic fragment reaches the thread once, with its turn', () => {
    expect(modes).toEqual(['full', 'delta', 'delta']);
    expect(bodies).toHaveLength(3);
    const users = byRole(bodies[2], 'user');
    expect(users).toHaveLength(3);
    const all = users.join('\n');
    expect(occurrences(all, '[System Context]: The open note is Queries/Limiting.md.')).toBe(1);
    expect(occurrences(all, '[System Context]: The open note is Queries/Backlinks.md.')).toBe(1);
    expect(users[2]).toContain('[System Context]: The open note is Queries/Backlinks.md.');
    expect(users[2].endsWith(SCENARIO[2].user)).toBe(true);
    NOTES.forEach((note) => expect(occurrences(all, noteBody(note))).toBe(1));
    // The cursor is on the third reply: system, three questions and two replies come before it.
    expect(convo.session?.cursor).toBe(6);
  });

  test('counter-example: the whole stateless request on the resumed thread duplicates its history', async () => {
    const assembly = await convo.assemble({ user: 'Summarize what we covered.', context: [] });
    const proper = convo.compile(assembly, sender());
    expect(proper.mode).toBe('delta');
    const before = server.requests.length;
    await provider.send({ messages: assembly.messages, sessionId: proper.sessionId });
    const body = server.requests.slice(before).find((r) => r.api === 'openai-responses')!.body as ResponsesBody;
    const users = byRole(body, 'user').join('\n');
    for (const step of SCENARIO) expect(occurrences(users, step.user) - occurrences(users, `Question: ${step.user}`)).toBe(2);
    for (const note of NOTES) expect(occurrences(users, noteBody(note))).toBe(2);
  }, 60_000);
});
