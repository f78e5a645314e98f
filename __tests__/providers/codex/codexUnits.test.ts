/* global describe, test, expect -- jest globals: the lint config declares no jest environment */
/**
 * The Codex CLI provider's parts without the CLI: arguments, the JSONL events, the rollout (usage
 * and roll-back), the environment and redaction, and a run through a scripted child process.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, promises as fs, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { ProviderConfig } from '../../../src/core/ports/chatModel';
import { codexArgs, CodexEventReader, createCodexProvider, findRollout, lastTurnUsage, tomlString } from '../../../src/providers/codex';
import type { SpawnFn } from '../../../src/providers/cli/process';
import { codexEnvironment } from '../../../src/providers/codex/environment';
import { runFailure, statusIn } from '../../../src/providers/codex/errors';
import { markRollout, rollBack } from '../../../src/providers/codex/rollout';
import { isProviderError, type ProviderError } from '../../../src/providers/errors';

const CONFIG: ProviderConfig = { id: 'cx', kind: 'codex', model: 'gpt-5-codex' };
const THREAD = '01a21e02-2f4c-73a1-9bc0-360878fbdb1d';

describe('arguments', () => {
  test('first turn: exec --json, read-only, no approvals, the system prompt as instructions, the prompt on stdin', () => {
    const args = codexArgs(CONFIG, { instructions: 'Be "brief".\nCite.', keyed: false });
    expect(args.slice(0, 3)).toEqual(['exec', '--json', '--skip-git-repo-check']);
    expect(args).toEqual(expect.arrayContaining(['-m', 'gpt-5-codex', '-c', 'approval_policy="never"', 'sandbox_mode="read-only"', 'web_search="disabled"']));
    expect(args).toContain('instructions="Be \\"brief\\".\\nCite."');
    expect(args.at(-1)).toBe('-');
    expect(args.join(' ')).toContain('--disable shell_tool');
    // No base URL and no key: Codex's own OpenAI provider and its login.
    expect(args.join(' ')).not.toContain('model_provider');
  });

  test('a later turn: exec resume <thread>, no instructions (the thread has them)', () => {
    const args = codexArgs(CONFIG, { instructions: 'ignored', threadId: THREAD, keyed: false });
    expect(args.slice(0, 2)).toEqual(['exec', 'resume']);
    expect(args.slice(-2)).toEqual([THREAD, '-']);
    expect(args.some((a) => a.startsWith('instructions='))).toBe(false);
    expect(args).toContain('sandbox_mode="read-only"');
  });

  test('a base URL or a key: a custom Responses provider whose key is read from the environment, never passed', () => {
    const args = codexArgs({ ...CONFIG, baseUrl: 'http://127.0.0.1:9/v1' }, { keyed: true });
    expect(args).toEqual(
      expect.arrayContaining([
        'model_provider="strata"',
        'model_providers.strata.base_url="http://127.0.0.1:9/v1"',
        'model_providers.strata.wire_api="responses"',
        'model_providers.strata.env_key="STRATA_CODEX_API_KEY"',
      ]),
    );
    expect(codexArgs(CONFIG, { keyed: true })).toContain('model_providers.strata.base_url="https://api.openai.com/v1"');
  });

  test('TOML strings: quotes, newlines, DEL and lone surrogates', () => {
    expect(tomlString('a"b\\c\n\t')).toBe('"a\\"b\\\\c\\n\\t"');
    expect(tomlString('x\u007fy')).toBe('"x\\u007fy"');
    expect(tomlString('bad \ud800 pair 😀')).toBe('"bad \ufffd pair 😀"');
  });
});

describe('events', () => {
  const lines = [
    { type: 'thread.started', thread_id: THREAD },
    { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for `x` not found.' } },
    { type: 'turn.started' },
    { type: 'item.started', item: { id: 'item_1', type: 'agent_message', text: 'Hel' } },
    { type: 'item.updated', item: { id: 'item_1', type: 'agent_message', text: 'Hello' } },
    { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Hello there.' } },
    { type: 'item.completed', item: { id: 'item_2', type: 'reasoning', text: 'thinking' } },
    { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: 'Second.' } },
    { type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 60, cache_write_input_tokens: 0, output_tokens: 7, reasoning_output_tokens: 3 } },
  ];

  test('split anywhere across chunks: the thread id, the reply streamed as it grows, the running usage', () => {
    const tokens: string[] = [];
    const reader = new CodexEventReader((t) => tokens.push(t));
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n';
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7));
    reader.end();
    expect(reader.threadId).toBe(THREAD);
    expect(reader.turnStarted).toBe(true);
    expect(tokens).toEqual(['Hel', 'lo', ' there.', '\n\nSecond.']);
    const outcome = reader.outcome;
    expect(outcome.text).toBe('Hello there.\n\nSecond.');
    expect(tokens.join('')).toBe(outcome.text);
    expect(outcome).toMatchObject({ completed: true, errors: [], notices: ['Model metadata for `x` not found.'] });
    expect(outcome.totalUsage).toEqual({ inputTokens: 100, outputTokens: 7, cachedReadTokens: 60, cacheWriteTokens: 0 });
    expect(reader.stray).toEqual(['not json']);
  });

  test('turn.failed and error events are the errors; an HTTP status is read from their text', () => {
    const reader = new CodexEventReader();
    reader.push(`${JSON.stringify({ type: 'error', message: 'stream error: unexpected status 429 Too Many Requests' })}\n`);
    reader.push(`${JSON.stringify({ type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } })}\n`);
    expect(reader.outcome.completed).toBe(false);
    expect(reader.outcome.errors).toHaveLength(2);
    expect(statusIn(reader.outcome.errors[1])).toBe(401);
  });
});

/** A rollout as Codex 0.171 writes it: two turns, the second with two model requests. */
function rolloutText(): string {
  const event = (payload: unknown) => JSON.stringify({ timestamp: 't', type: 'event_msg', payload });
  const usage = (input: number, cached: number, output: number) => ({ input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0 });
  return [
    JSON.stringify({ type: 'session_meta', payload: { id: THREAD } }),
    event({ type: 'task_started' }),
    JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a "token_count" in a note' }] } }),
    event({ type: 'token_count', info: { total_token_usage: usage(100, 0, 10), last_token_usage: usage(100, 0, 10) } }),
    event({ type: 'task_complete' }),
    event({ type: 'task_started' }),
    event({ type: 'token_count', info: null }),
    event({ type: 'token_count', info: { total_token_usage: usage(220, 90, 15), last_token_usage: usage(120, 90, 5) } }),
    event({ type: 'token_count', info: { total_token_usage: usage(350, 200, 20), last_token_usage: usage(130, 110, 5) } }),
    event({ type: 'task_complete' }),
    '',
  ].join('\n');
}

describe('the rollout', () => {
  test("this run's usage: the last turn's requests added up, not the thread's running total", () => {
    expect(lastTurnUsage(rolloutText())).toEqual({ inputTokens: 250, outputTokens: 10, cachedReadTokens: 200, cacheWriteTokens: 0 });
    expect(lastTurnUsage('')).toBeNull();
  });

  test('found by thread id under sessions/YYYY/MM/DD, newest first; a stopped run is cut back', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'strata-codex-unit-'));
    try {
      const day = path.join(home, 'sessions', '2026', '11', '27');
      mkdirSync(day, { recursive: true });
      mkdirSync(path.join(home, 'sessions', '2025', '01', '02'), { recursive: true });
      const file = path.join(day, `rollout-2026-11-27T17-16-29-${THREAD}.jsonl`);
      writeFileSync(file, rolloutText());
      expect(await findRollout(fs, home, THREAD)).toBe(`${home}/sessions/2026/11/27/rollout-2026-11-27T17-16-29-${THREAD}.jsonl`);
      expect(await findRollout(fs, home, '01a21e02-0000-0000-0000-000000000000')).toBeNull();
      expect(await findRollout(fs, home, 'a thread name')).toBeNull();

      const mark = (await markRollout(fs, home, THREAD))!;
      writeFileSync(file, `${rolloutText()}{"type":"response_item","payload":{"role":"user"}}\n`);
      expect(await rollBack(fs, mark)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(rolloutText());
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('environment and redaction', () => {
  test("only what a child process needs, Codex's own settings, CODEX_HOME of Strata's and the key", () => {
    const env = codexEnvironment(
      { PATH: '/bin', HOME: '/home/u', https_proxy: 'http://p:3128', CODEX_HOME: '/home/u/.codex', CODEX_SANDBOX_NETWORK_DISABLED: '1', OPENAI_API_KEY: 'sk-user-shell-key-0123456789', GITHUB_TOKEN: 'ghp_x' },
      '/home/u/.strata/codex',
      'sk-strata-codex-key-0123456789',
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      https_proxy: 'http://p:3128',
      CODEX_SANDBOX_NETWORK_DISABLED: '1',
      CODEX_HOME: '/home/u/.strata/codex',
      STRATA_CODEX_API_KEY: 'sk-strata-codex-key-0123456789',
    });
  });

  test('a failed run: the error events summarised, every secret removed, a lost thread said as such', () => {
    const key = 'sk-strata-codex-key-0123456789';
    const outcome = { completed: false, text: '', totalUsage: null, errors: [`unexpected status 401 Unauthorized: key ${key} refused`], notices: [] };
    const error = runFailure(CONFIG, { code: 1, signal: null, stderr: 'WARNING: noise', outcome, stray: [] }, [key]);
    expect(error).toMatchObject({ kind: 'auth', status: 401, sessionInvalid: false });
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('noise');
    const lost = runFailure(
      CONFIG,
      { code: 1, signal: null, stderr: `Error: thread/resume: thread/resume failed: no rollout found for thread id ${THREAD} (code -32600)`, outcome: { ...outcome, errors: [] }, stray: [], resumed: THREAD },
      [],
    );
    expect(lost).toMatchObject({ kind: 'bad-request', sessionInvalid: true });
    expect(lost.message).toContain(`the session ${THREAD} no longer exists`);
  });
});

/** A child process that prints the given lines and exits with `code`, recording what it was sent. */
function scriptedSpawn(lines: readonly unknown[], code = 0): { spawn: SpawnFn; calls: Array<{ args: string[]; env: Record<string, string>; stdin: string }> } {
  const calls: Array<{ args: string[]; env: Record<string, string>; stdin: string }> = [];
  const spawn: SpawnFn = (_command, args, options) => {
    const call = { args, env: options.env ?? {}, stdin: '' };
    calls.push(call);
    const emitter = new EventEmitter();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const child = Object.assign(emitter, {
      pid: undefined,
      exitCode: null as number | null,
      signalCode: null as string | null,
      stdout,
      stderr,
      stdin: {
        on: () => undefined,
        end: (chunk: string) => {
          call.stdin = chunk;
          setImmediate(() => {
            for (const line of lines) stdout.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
            stdout.end();
            child.exitCode = code;
            setImmediate(() => emitter.emit('close', code, null));
          });
        },
      },
      kill: () => true,
    });
    return child;
  };
  return { spawn, calls };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (isProviderError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('a run through a scripted child process', () => {
  const ok = [
    { type: 'thread.started', thread_id: THREAD },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Answer.' } },
    { type: 'turn.completed', usage: { input_tokens: 50, cached_input_tokens: 0, output_tokens: 2 } },
  ];

  test('the reply, the thread id to resume, the key in the environment only; the system prompt as instructions', async () => {
    const { spawn, calls } = scriptedSpawn(ok);
    const provider = createCodexProvider({ ...CONFIG, secretId: 'k' }, { spawn, home: '/nowhere/codex', env: { PATH: '/bin' }, getSecret: () => 'sk-key-0123456789abcdef' });
    const result = await provider.send({ messages: [{ role: 'system', content: 'Static.' }, { role: 'user', content: 'Q?' }] });
    expect(result).toEqual({ text: 'Answer.', usage: { inputTokens: 50, outputTokens: 2, cachedReadTokens: 0, cacheWriteTokens: 0 }, sessionId: THREAD });
    expect(calls[0].stdin).toBe('Q?');
    expect(calls[0].args).toContain('instructions="Static."');
    expect(calls[0].env).toEqual({ PATH: '/bin', CODEX_HOME: '/nowhere/codex', STRATA_CODEX_API_KEY: 'sk-key-0123456789abcdef' });
  });

  test('without spawn (mobile) or a home folder: unsupported; a session id that is not a thread id: a new session', async () => {
    expect((await failure(createCodexProvider(CONFIG).send({ messages: [{ role: 'user', content: 'Q?' }] }))).kind).toBe('unsupported');
    const { spawn } = scriptedSpawn(ok);
    expect((await failure(createCodexProvider(CONFIG, { spawn }).send({ messages: [{ role: 'user', content: 'Q?' }] }))).kind).toBe('unsupported');
    const named = await failure(createCodexProvider(CONFIG, { spawn, home: '/h' }).send({ messages: [{ role: 'user', content: 'Q?' }], sessionId: 'my thread' }));
    expect(named).toMatchObject({ kind: 'bad-request', sessionInvalid: true });
  });

  test('error events Codex recovered from (its own retries) do not fail a completed turn', async () => {
    const { spawn } = scriptedSpawn([ok[0], ok[1], { type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion)' }, ok[2], ok[3]]);
    const result = await createCodexProvider(CONFIG, { spawn, home: '/h' }).send({ messages: [{ role: 'user', content: 'Q?' }] });
    expect(result.text).toBe('Answer.');
  });

  test('a run that exits without turn.completed fails, with the CLI said to have ended early', async () => {
    const { spawn } = scriptedSpawn([{ type: 'thread.started', thread_id: THREAD }, { type: 'turn.started' }], 0);
    const error = await failure(createCodexProvider(CONFIG, { spawn, home: '/h' }).send({ messages: [{ role: 'user', content: 'Q?' }] }));
    expect(error.kind).toBe('server');
    expect(error.message).toContain('ended without an answer');
  });
});
