/* global describe, test, expect, beforeAll, afterAll -- jest globals: the lint config declares no jest environment */
/**
 * The real Codex CLI when things go wrong, offline against the local server: a stopped reply (the
 * process tree ends, the session is kept), a thread Codex no longer has (the retry starts a new
 * one in full), a model change (a new thread), and an auth failure (reported without the key).
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startProviderServer, type ProviderServer } from '../../../testing/providerServer/index';
import { makeController, NoteFiles, PLAN, VENT } from '../../core/chat/controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';
import { CODEX_KEY, codexUnavailable, offlineCodex } from './codexHarness';

const unavailable = codexUnavailable();
if (unavailable) console.warn(`\n!!! SKIPPING the Codex CLI failure tests: ${unavailable}\n`);
const suite = unavailable ? describe.skip : describe;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every rollout file under a CODEX_HOME. */
function rollouts(home: string): string[] {
  const root = path.join(home, 'sessions');
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(root, f));
}

suite('the real Codex CLI when things go wrong', () => {
  let server: ProviderServer;
  let cx: ReturnType<typeof offlineCodex>;
  useProviderServer((s) => (server = s), { resetEachTest: false });
  beforeAll(() => {
    cx = offlineCodex(server.url);
  });
  afterAll(() => cx?.cleanup());

  test('stop ends the run and what it started; the session is kept and rolled back, and the retry resumes it', async () => {
    const files = new NoteFiles();
    const { controller } = makeController(cx.settings, { providers: cx.providers, files, ids: ['stop-chat'] });
    await controller.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    const session = controller.state.conversation.session;
    expect(session?.sessionId).toBeDefined();

    server.injectFault({ kind: 'hang' });
    const before = server.requests.length;
    const runsBefore = cx.runs.length;
    const sending = controller.send('And the ventilation?', [{ kind: 'note', path: VENT }]);
    await until(() => server.requests.length > before);
    const pid = cx.runs[runsBefore].pid!;
    expect(alive(pid)).toBe(true);
    controller.stop();
    await sending;
    expect(controller.state.pending).toMatchObject({ status: 'stopped', text: 'And the ventilation?' });
    expect(controller.state.conversation.session).toEqual(session);
    // The whole process group got SIGTERM: Codex and anything it had started are gone.
    await until(() => !alive(pid), 10_000);
    server.clearFaults();

    await controller.retry();
    expect(controller.state.pending).toBeNull();
    const [first, retried] = files.chat('stop-chat')!.turns;
    expect(retried.envelope?.compile?.mode).toBe('delta');
    expect(controller.state.conversation.session?.sessionId).toBe(session?.sessionId);
    expect(retried.reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: And the ventilation?.`);
    expect(first.status).toBe('complete');
    // Codex had written the stopped turn's message to its thread; the provider cut the thread back,
    // so the retried question is in it once (not twice, once unanswered).
    const retryBody = server.requests.at(-1)!.body as { input: Array<{ role?: string; content?: Array<{ text?: string }> }> };
    const asked = retryBody.input.filter((i) => i.role === 'user').map((i) => (i.content ?? []).map((c) => c.text ?? '').join('')).filter((t) => t.endsWith('And the ventilation?'));
    console.debug(`Codex after a stop: the retried question is in the thread ${asked.length} time(s)`);
    expect(asked.length).toBe(1);
  }, 120_000);

  test('a thread Codex no longer has: the error says so, and the retry starts a new thread in full', async () => {
    const files = new NoteFiles();
    const { controller } = makeController(cx.settings, { providers: cx.providers, files, ids: ['lost-chat'] });
    await controller.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    const lost = controller.state.conversation.session!.sessionId!;
    for (const file of rollouts(cx.home)) if (file.includes(lost)) rmSync(file);

    await controller.send('And the ventilation?', [{ kind: 'note', path: VENT }]);
    expect(controller.state.pending?.status).toBe('failed');
    expect(controller.state.pending?.error).toContain(`the session ${lost} no longer exists`);
    expect(controller.state.conversation.session).toBeNull();

    await controller.retry();
    const turns = files.chat('lost-chat')!.turns;
    expect(turns.map((t) => t.status)).toEqual(['complete', 'complete']);
    expect(turns[1].envelope?.compile).toMatchObject({ mode: 'full' });
    expect(cx.runs.at(-1)!.args.slice(0, 2)).toEqual(['exec', '--json']);
    const renewed = controller.state.conversation.session!.sessionId!;
    expect(renewed).not.toBe(lost);
    // The new thread got the whole conversation: both questions, both notes.
    expect(turns[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: And the ventilation?.`);
  }, 120_000);

  test('another model: a full request on a new thread', async () => {
    const files = new NoteFiles();
    const { controller } = makeController(cx.settings, { providers: cx.providers, files, ids: ['model-chat'] });
    await controller.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    const first = controller.state.conversation.session!.sessionId!;
    controller.setModel('codex', 'gpt-5');
    await controller.send('And the ventilation?', [{ kind: 'note', path: VENT }]);
    const turns = files.chat('model-chat')!.turns;
    expect(turns[1].envelope?.compile?.mode).toBe('full');
    expect(turns[1].envelope?.compile?.reason).toMatch(/^model-changed: /);
    expect(cx.runs.at(-1)!.args).toEqual(expect.arrayContaining(['-m', 'gpt-5']));
    expect(controller.state.conversation.session?.sessionId).not.toBe(first);
  }, 120_000);

  test('a refused key: an auth error, and no secret in what the user sees', async () => {
    const guarded = await startProviderServer({ apiKey: 'sk-other-key-0000000000' });
    try {
      const other = offlineCodex(guarded.url);
      try {
        const { controller } = makeController(other.settings, { providers: other.providers, ids: ['auth-chat'] });
        await controller.send('What is the plan?', []);
        const pending = controller.state.pending;
        expect(pending?.status).toBe('failed');
        expect(pending?.error).toMatch(/API key|log Codex in/);
        expect(pending?.error).not.toContain(CODEX_KEY);
        console.debug(`Codex auth failure as shown: ${pending?.error}`);
      } finally {
        other.cleanup();
      }
    } finally {
      await guarded.close();
    }
  }, 180_000);
});
