/* global describe, test, expect, beforeAll, afterAll -- jest globals: the lint config declares no jest environment */
/**
 * The real Codex CLI (`@openai/codex`, a dev dependency) driven by the chat controller, offline
 * against the local provider server: a chat of three turns on one Codex thread (full request, then
 * deltas on `codex exec resume`), saved as a chat note, reopened, and continued on the same thread.
 */
import type { ProviderServer, RecordedRequest } from '../../../testing/providerServer/index';
import { DEFAULT_SYSTEM_PROMPT } from '../../../src/core/systemPrompt';
import { makeController, NoteFiles, PLAN, VENT } from '../../core/chat/controllerHarness';
import { occurrences } from '../../core/compiler/sessionMemory';
import { noteBody } from '../../core/compiler/conversation';
import { useProviderServer } from '../../helpers/providerServer';
import { byRole, CODEX_KEY, codexUnavailable, conversationText, MODEL, offlineCodex, type ResponsesBody } from './codexHarness';

const unavailable = codexUnavailable();
if (unavailable) {
  console.warn(`\n!!!!!!!!\n!!! SKIPPING the Codex CLI end-to-end tests: ${unavailable}\n!!!!!!!!\n`);
}
const suite = unavailable ? describe.skip : describe;

const QUESTIONS = ['What is the plan?', 'And the ventilation?', 'Back to the plan: what comes first?', 'Summarize both notes.'];

/** The Responses requests Codex made (one per turn: the script asks for no tools). */
function generations(requests: readonly RecordedRequest[]): Array<{ body: ResponsesBody; headers: Record<string, string> }> {
  return requests.filter((r) => r.api === 'openai-responses').map((r) => ({ body: r.body as ResponsesBody, headers: r.headers }));
}

suite('the real Codex CLI, offline against the local server', () => {
  let server: ProviderServer;
  let cx: ReturnType<typeof offlineCodex>;
  const files = new NoteFiles();
  let requests: ReturnType<typeof generations> = [];
  let chatId = '';

  useProviderServer((s) => (server = s), { resetEachTest: false });
  beforeAll(async () => {
    cx = offlineCodex(server.url);
    const a = makeController(cx.settings, { providers: cx.providers, files, ids: ['codex-chat'] }).controller;
    await a.send(QUESTIONS[0], [{ kind: 'note', path: PLAN }]);
    await a.send(QUESTIONS[1], [{ kind: 'note', path: VENT }]);
    await a.send(QUESTIONS[2], [{ kind: 'note', path: PLAN }]);
    await a.flush();
    chatId = a.state.conversation.id;
    // Reopened: a new controller reads the chat note, and the fourth turn resumes the saved thread.
    const { controller: b, archive } = makeController(cx.settings, { providers: cx.providers, files, ids: ['unused'] });
    const [entry] = await archive.list();
    await b.open(entry.id);
    await b.send(QUESTIONS[3], []);
    await b.flush();
    requests = generations(server.requests);
  }, 180_000);

  afterAll(() => cx?.cleanup());

  test('turn 1 starts a thread in full; turns 2 and 3 and the reopened chat resume it with deltas', () => {
    const chat = files.chat(chatId)!;
    const failures = chat.turns.filter((t) => t.status !== 'complete');
    expect(failures).toEqual([]);
    expect(chat.turns.map((t) => t.envelope?.compile?.mode)).toEqual(['full', 'delta', 'delta', 'delta']);
    expect(cx.runs.map((r) => r.args.slice(0, 2).join(' '))).toEqual(['exec --json', 'exec resume', 'exec resume', 'exec resume']);
    // One thread for the whole chat: its id came from thread.started and was saved with the chat.
    const thread = chat.session?.sessionId;
    expect(thread).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(cx.runs.slice(1).map((r) => r.args.at(-2))).toEqual([thread, thread, thread]);
    expect(requests).toHaveLength(4);
    expect(requests.map((r) => r.headers['thread-id'])).toEqual([thread, thread, thread, thread]);
    expect(chat.turns[3].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: ${QUESTIONS[3]}.`);
  });

  test('the server sees the resumed conversation: every earlier turn exactly once, each note once', () => {
    const chat = files.chat(chatId)!;
    for (const [n, { body }] of requests.entries()) {
      const users = byRole(body, 'user').join('\n');
      for (const q of QUESTIONS.slice(0, n + 1)) expect(occurrences(users, q) - occurrences(users, `Question: ${q}`)).toBe(1);
      const assistants = byRole(body, 'assistant');
      expect(assistants).toEqual(chat.turns.slice(0, n).map((t) => t.reply));
      // Each request extends the one before: Codex keeps the thread, Strata sent only what is new.
      if (n > 0) expect(body.input.slice(0, requests[n - 1].body.input.length)).toEqual(requests[n - 1].body.input);
    }
    const last = conversationText(requests[3].body);
    for (const note of [PLAN, VENT]) expect(occurrences(last, noteBody(note))).toBe(1);
    // What Strata sent per run (stdin): each note with the turn it entered in, each question once.
    const prompts = cx.runs.map((r) => r.prompt);
    expect(prompts.map((p) => occurrences(p, noteBody(PLAN)))).toEqual([1, 0, 0, 0]);
    expect(prompts.map((p) => occurrences(p, noteBody(VENT)))).toEqual([0, 1, 0, 0]);
    prompts.forEach((p, n) => QUESTIONS.forEach((q, k) => expect(occurrences(p, q)).toBe(k === n ? 1 : 0)));
    // Turn 3 names the plan already in the thread instead of sending it again.
    expect(prompts[2]).toContain(PLAN);
    const bytes = prompts.map((p) => Buffer.byteLength(p));
    const threadBytes = requests.map(({ body }) => Buffer.byteLength(JSON.stringify(body.input)));
    console.debug(`Codex end to end, bytes Strata sent per run: ${JSON.stringify(bytes)}; the thread's input per request: ${JSON.stringify(threadBytes)}`);
    expect(bytes[2]).toBeLessThan(bytes[0] / 2);
  });

  test("Strata's system prompt replaces Codex's instructions once, on the first run; the thread keeps it", () => {
    const withInstructions = cx.runs.map((r) => r.args.some((a) => a.startsWith('instructions=')));
    expect(withInstructions).toEqual([true, false, false, false]);
    for (const { body } of requests) {
      const developer = byRole(body, 'developer').join('\n');
      expect(occurrences(developer, DEFAULT_SYSTEM_PROMPT.slice(0, 200))).toBe(1);
      expect(developer).not.toContain('You are a coding agent running in the Codex CLI');
      expect(occurrences(byRole(body, 'user').join('\n'), DEFAULT_SYSTEM_PROMPT.slice(0, 200))).toBe(0);
    }
  });

  test('read-only, no approvals, no shell or web search, no environment context; the key only in the environment', () => {
    for (const { args, env } of cx.runs) {
      expect(args).toEqual(expect.arrayContaining(['-c', 'approval_policy="never"', 'sandbox_mode="read-only"', 'web_search="disabled"']));
      expect(args.join(' ')).not.toContain(CODEX_KEY);
      expect(env.STRATA_CODEX_API_KEY).toBe(CODEX_KEY);
      expect(env.CODEX_HOME).toBe(cx.home);
    }
    for (const { body, headers } of requests) {
      expect(body.model).toBe(MODEL);
      // No shell, no sub-agents, no goals: what Codex may call cannot touch the computer.
      const tools = ((body as unknown as { tools?: Array<{ name?: string; type?: string }> }).tools ?? []).map((t) => t.name ?? t.type);
      expect(tools).not.toContain('exec_command');
      expect(tools.filter((t) => t !== 'request_user_input' && t !== 'view_image')).toEqual([]);
      expect(headers.authorization).toBe('[redacted]');
      expect(conversationText(body)).not.toContain('<environment_context>');
    }
    expect(files.only()).not.toContain(CODEX_KEY);
  });

  test("usage is each run's own (from the thread's rollout), not the thread's running total", () => {
    const usage = files.chat(chatId)!.turns.map((t) => t.usage!);
    for (const u of usage) {
      expect(u.inputTokens).toBeGreaterThan(0);
      expect(u.outputTokens).toBeGreaterThan(0);
    }
    // A running total would make each turn's input the sum of all before it.
    for (let n = 1; n < usage.length; n++) expect(usage[n].inputTokens).toBeLessThan(usage[n - 1].inputTokens * 1.5);
    // The server's OpenAI cache rule serves the resumed thread's prefix.
    for (const u of usage.slice(1)) expect(u.cachedReadTokens).toBeGreaterThan(0);
    console.debug(`Codex usage per turn: ${JSON.stringify(usage)}`);
  });
});
