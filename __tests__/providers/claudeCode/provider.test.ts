/* global describe, test, expect, afterAll -- jest globals: the lint config declares no jest environment */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliArgs, createClaudeCodeProvider, StreamJsonReader } from '../../../src/providers/claudeCode';
import { cliPrompt } from '../../../src/providers/cli/prompt';
import { runFailure } from '../../../src/providers/claudeCode/errors';
import { claudeUnavailable, CONFIG, failure, offlineCli } from './cliHarness';



describe('prompt and arguments', () => {
  test('a new session: the system message becomes --system-prompt, the user message the prompt', () => {
    const prompt = cliPrompt(
      [
        { role: 'system', content: 'Static prompt.' },
        { role: 'user', content: 'Question?' },
      ],
      false,
    );
    expect(prompt).toEqual({ systemPrompt: 'Static prompt.', prompt: 'Question?' });
    const args = cliArgs(CONFIG, prompt, undefined);
    expect(args.slice(0, 5)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages']);
    expect(args).toEqual(expect.arrayContaining(['--model', 'claude-sonnet-4-5', '--tools', '', '--system-prompt', 'Static prompt.']));
    expect(args).not.toContain('--resume');
  });

  test('a resumed session: --resume in a fork, no system prompt', () => {
    const prompt = cliPrompt([{ role: 'user', content: '[System Context]: x\n\nQuestion?' }], true);
    expect(prompt).toEqual({ prompt: '[System Context]: x\n\nQuestion?' });
    const args = cliArgs(CONFIG, prompt, 'abc');
    expect(args).toEqual(expect.arrayContaining(['--resume', 'abc', '--fork-session']));
    expect(args).not.toContain('--system-prompt');
  });

  test('earlier turns the session has not seen go first, as history; nothing is dropped', () => {
    const prompt = cliPrompt(
      [
        { role: 'system', content: 'Static prompt.' },
        { role: 'user', content: 'One?' },
        { role: 'assistant', content: 'Yes.' },
        { role: 'user', content: 'Two?' },
      ],
      true,
    );
    expect(prompt.systemPrompt).toBeUndefined();
    expect(prompt.prompt).toBe(
      '[System Context]: Static prompt.\n\n<conversation_history>\n<user>\nOne?\n</user>\n<assistant>\nYes.\n</assistant>\n</conversation_history>\n\nTwo?',
    );
  });

  test('an earlier agent turn (its steps native elsewhere) goes as text: its tool outputs as blocks of its user message', () => {
    const steps = [
      { text: '', calls: [{ id: 'call_1', name: 'readNote', args: { path: 'Vent.md' } }], results: [{ callId: 'call_1', name: 'readNote', content: 'Wax openers open at 18 °C.', isError: false }] },
    ];
    const prompt = cliPrompt(
      [
        { role: 'system', content: 'Static prompt.' },
        { role: 'user', content: 'Which vents?' },
        { role: 'assistant', content: 'Wax openers.', steps },
        { role: 'user', content: 'And storms?' },
      ],
      false,
    );
    expect(prompt.prompt).toContain('<user>\nWhich vents?\n\n<tool_output tool="readNote" input="');
    expect(prompt.prompt).toContain('Wax openers open at 18 °C.');
    expect(prompt.prompt).toContain('<assistant>\nWax openers.\n</assistant>');
    expect(prompt.prompt.endsWith('And storms?')).toBe(true);
  });

  test('a request must end with the user message', () => {
    expect(() => cliPrompt([], false)).toThrow(/no messages/);
    expect(() => cliPrompt([{ role: 'assistant', content: 'x' }], false)).toThrow(/last message/);
  });
});

describe('stream-json reader', () => {
  // Shapes as claude 2.1.330 prints them (see the end-to-end test for the real thing).
  const lines = [
    { type: 'system', subtype: 'init', session_id: 's-1', model: 'claude-sonnet-4-5' },
    ...['Seen ', 'context: ', 'none.'].map((text) => ({
      type: 'stream_event',
      event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
      session_id: 's-1',
      parent_tool_use_id: null,
      api_message_id: 'msg_1',
    })),
    { type: 'stream_event', event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'SUBAGENT' } }, parent_tool_use_id: 'tool_1' },
    { type: 'assistant', message: { id: 'msg_1', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Seen context: none.' }] }, parent_tool_use_id: null },
    {
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Seen context: none.',
      session_id: 's-1',
      usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 5 },
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');

  test.each([1, 7, 64, lines.length])('text deltas stream in order, whatever the chunking (%i chars)', (size) => {
    const tokens: string[] = [];
    const reader = new StreamJsonReader((t) => tokens.push(t));
    for (let i = 0; i < lines.length; i += size) reader.push(lines.slice(i, i + size));
    reader.end();
    expect(tokens).toEqual(['Seen ', 'context: ', 'none.']);
    expect(reader.result).toEqual({
      ok: true,
      subtype: 'success',
      text: 'Seen context: none.',
      sessionId: 's-1',
      usage: { inputTokens: 130, outputTokens: 5, cachedReadTokens: 100, cacheWriteTokens: 20 },
      model: 'claude-sonnet-4-5',
      errors: [],
    });
  });

  test('without partial messages the whole assistant text is passed on once; stray lines are kept', () => {
    const tokens: string[] = [];
    const reader = new StreamJsonReader((t) => tokens.push(t));
    reader.push('not json\n');
    reader.push(`${JSON.stringify({ type: 'assistant', message: { id: 'm2', content: [{ type: 'text', text: 'Whole reply.' }] } })}\n`);
    reader.end();
    expect(tokens).toEqual(['Whole reply.']);
    expect(reader.stray).toEqual(['not json']);
    expect(reader.result).toBeNull();
  });
});

describe('error results', () => {
  test.each([
    [429, 'rate-limited'],
    [401, 'auth'],
    [529, 'server'],
  ])('an API error %i the CLI gave up on becomes a %s error with the CLI\'s own words', (status, kind) => {
    const reader = new StreamJsonReader();
    reader.push(`${JSON.stringify({ type: 'result', subtype: 'error_during_execution', is_error: true, api_error_status: status, errors: ['API Error: overloaded'] })}\n`);
    expect(reader.result?.ok).toBe(false);
    const error = runFailure(CONFIG, { code: 1, signal: null, stderr: '', result: reader.result, stray: [] }, []);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toContain(`failed (error_during_execution) after HTTP ${status}: API Error: overloaded`);
    expect(error.sessionInvalid).toBe(false);
  });
});

describe('failures', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'strata-cc-fail-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const messages = [{ role: 'user' as const, content: 'Hello?' }];

  test('no spawn (mobile): a clear unsupported error', async () => {
    const error = await failure(createClaudeCodeProvider(CONFIG).send({ messages }));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toMatch(/desktop/);
  });

  test('a missing executable names itself and says what to do', async () => {
    const cli = offlineCli('http://127.0.0.1:9');
    const missing = path.join(scratch, 'no-such-claude');
    const error = await failure(createClaudeCodeProvider({ ...CONFIG, executable: missing }, { spawn: cli.spawn, env: cli.env }).send({ messages }));
    cli.cleanup();
    expect(error.kind).toBe('unsupported');
    expect(error.message).toContain(`${missing} was not found`);
    expect(error.message).toContain('Install Claude Code');
  });

  test('already aborted: rejects without starting the CLI', async () => {
    const cli = offlineCli('http://127.0.0.1:9');
    const controller = new AbortController();
    controller.abort();
    const error = await failure(createClaudeCodeProvider(CONFIG, { spawn: cli.spawn, env: cli.env }).send({ messages, signal: controller.signal }));
    cli.cleanup();
    expect(error.kind).toBe('aborted');
    expect(cli.runs).toHaveLength(0);
  });

  test('a non-zero exit: stderr summarised, the API key never shown', async () => {
    const script = path.join(scratch, 'failing-claude');
    writeFileSync(script, '#!/bin/sh\necho "warming up" >&2\necho "401 invalid x-api-key: $ANTHROPIC_API_KEY" >&2\nexit 3\n');
    chmodSync(script, 0o755);
    const cli = offlineCli('http://127.0.0.1:9');
    const error = await failure(createClaudeCodeProvider({ ...CONFIG, executable: script }, { spawn: cli.spawn, env: cli.env }).send({ messages }));
    cli.cleanup();
    expect(error.message).toContain('exited with code 3');
    expect(error.message).toContain('401 invalid x-api-key: [redacted]');
    expect(error.message).not.toContain(cli.env.ANTHROPIC_API_KEY);
  });

  test('a CLI that goes silent is stopped after the inactivity limit with a timeout error', async () => {
    const script = path.join(scratch, 'silent-claude');
    writeFileSync(script, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(script, 0o755);
    const cli = offlineCli('http://127.0.0.1:9');
    const started = Date.now();
    const error = await failure(
      createClaudeCodeProvider({ ...CONFIG, executable: script }, { spawn: cli.spawn, env: cli.env, inactivityMs: 300 }).send({ messages }),
    );
    cli.cleanup();
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('no output from');
    expect(Date.now() - started).toBeLessThan(20_000); // stopped, not waited out
  });

  const realCli = claudeUnavailable() ? test.skip : test;
  realCli('the real CLI: resuming a session it does not know is reported as an invalid session', async () => {
    const cli = offlineCli('http://127.0.0.1:9');
    const provider = createClaudeCodeProvider({ ...CONFIG, cwd: cli.cwd }, { spawn: cli.spawn, env: cli.env });
    const error = await failure(provider.send({ messages, sessionId: '123e4567-e89b-12d3-a456-426614174000' }));
    cli.cleanup();
    expect(error.sessionInvalid).toBe(true);
    expect(error.message).toContain('no longer exists');
    expect(error.message).not.toContain(cli.env.ANTHROPIC_API_KEY);
  }, 60_000);
});
