/* global describe, test, expect, afterAll -- jest globals: the lint config declares no jest environment */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClaudeCodeProvider } from '../../../src/providers/claudeCode';
import { claudeUnavailable, CONFIG, failure, offlineCli } from './cliHarness';

const messages = [{ role: 'user' as const, content: 'Hello?' }];


// Strata's own environment as a desktop app may have it: what the CLI needs, and credentials of
// everything else.
const SECRETS = {
  ANTHROPIC_AUTH_TOKEN: 'auth-token-0123456789abcdef',
  CLAUDE_CODE_OAUTH_TOKEN: 'oauth-0123456789-abcdefghij',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  AWS_SESSION_TOKEN: 'IQoJb3JpZ2luX2VjEXAMPLESESSION',
  GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnop',
  OPENAI_API_KEY: 'openai-key-0123456789',
  DATABASE_PASSWORD: 'correct horse battery staple',
  My_Service_Credential: 'cred-0123456789',
};
const PARENT: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/home/someone',
  USER: 'someone',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'en_US.UTF-8',
  TMPDIR: os.tmpdir(),
  SHELL: '/bin/sh',
  HTTPS_PROXY: 'http://proxyuser:proxy-pass-0123@proxy.local:8080',
  no_proxy: 'localhost',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  CLAUDE_CONFIG_DIR: '/home/someone/.claude',
  DISABLE_TELEMETRY: '1',
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_REGION: 'us-east-1',
  STRATA_UNRELATED: 'not for the CLI',
  SHORT_KEY: 'abc',
  ...SECRETS,
};
/** What a shell adds to its own environment. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

describe('Claude Code: credentials never reach an error, and the CLI gets only what it needs', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'strata-cc-creds-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** A stand-in CLI: records its environment, prints every secret it knows of to stderr, fails. */
  function leakyCli(name: string): { executable: string; envFile: string } {
    const envFile = path.join(scratch, `${name}.env`);
    const executable = path.join(scratch, name);
    // One line for all of them: the error keeps only the last lines of stderr.
    const printed = `echo "leaked: ${Object.values(SECRETS).join(' ')} env: $CLAUDE_CODE_OAUTH_TOKEN $AWS_SECRET_ACCESS_KEY" >&2`;
    writeFileSync(executable, `#!/bin/sh\nenv > '${envFile}'\necho "proxy said: $HTTPS_PROXY" >&2\n${printed}\necho "short: abc" >&2\nexit 2\n`);
    chmodSync(executable, 0o755);
    return { executable, envFile };
  }

  const names = (envFile: string) =>
    readFileSync(envFile, 'utf8')
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('=')))
      .filter((n) => n && !SHELL_OWN.has(n))
      .sort();

  test('the CLI gets a minimal environment: no other tools\' credentials, no cloud keys it was not told to use', async () => {
    const { executable, envFile } = leakyCli('minimal-claude');
    const error = await failure(createClaudeCodeProvider({ ...CONFIG, executable }, { spawn: offlineCli('').spawn, parentEnv: PARENT }).send({ messages }));
    expect(error.message).toContain('exited with code 2');
    expect(names(envFile)).toEqual(
      [
        'PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'SHELL', 'HTTPS_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS',
        'ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_OAUTH_TOKEN', 'DISABLE_TELEMETRY',
      ].sort(),
    );
  });

  test('with CLAUDE_CODE_USE_BEDROCK the AWS variables go too', async () => {
    const { executable, envFile } = leakyCli('bedrock-claude');
    await failure(createClaudeCodeProvider({ ...CONFIG, executable }, { spawn: offlineCli('').spawn, parentEnv: { ...PARENT, CLAUDE_CODE_USE_BEDROCK: '1' } }).send({ messages }));
    expect(names(envFile)).toEqual(expect.arrayContaining(['AWS_ACCESS_KEY_ID', 'AWS_REGION', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'CLAUDE_CODE_USE_BEDROCK']));
    expect(names(envFile)).not.toContain('GITHUB_TOKEN');
  });

  test.each([
    ['the minimal environment', {}],
    ['Bedrock (the CLI has the AWS keys)', { CLAUDE_CODE_USE_BEDROCK: '1' }],
  ])('with %s, every inherited key/token/secret/password/credential value is redacted from the error', async (_name, extra) => {
    const { executable } = leakyCli('redacting-claude');
    const error = await failure(createClaudeCodeProvider({ ...CONFIG, executable }, { spawn: offlineCli('').spawn, parentEnv: { ...PARENT, ...extra } }).send({ messages }));
    expect(error.message).toContain('leaked: [redacted] [redacted]');
    expect(error.message).toContain('proxy said: http://proxyuser:[redacted]@proxy.local:8080');
    for (const value of [...Object.values(SECRETS), 'proxy-pass-0123']) expect(error.message).not.toContain(value);
    // Short values are left alone (redacting them would garble messages).
    expect(error.message).toContain('short: abc');
  });

  const realCli = claudeUnavailable() ? test.skip : test;
  realCli('the real CLI: a failing apiKeyHelper\'s output never reaches the error', async () => {
    const cli = offlineCli('http://127.0.0.1:9');
    const helper = path.join(scratch, 'helper.sh');
    writeFileSync(helper, '#!/bin/sh\necho "helper-stdout-key-0123456789"\necho "helper stderr hunter2-0123456789" >&2\necho "more helper output s3cr3t-abcdefgh" >&2\nexit 1\n');
    chmodSync(helper, 0o755);
    mkdirSync(path.join(cli.home, '.claude'), { recursive: true });
    writeFileSync(path.join(cli.home, '.claude', 'settings.json'), JSON.stringify({ apiKeyHelper: helper }));
    const { ANTHROPIC_API_KEY: _key, ...env } = cli.env;
    const provider = createClaudeCodeProvider({ ...CONFIG, cwd: cli.cwd }, { spawn: cli.spawn, parentEnv: env });
    const error = await failure(provider.send({ messages, sessionId: '123e4567-e89b-12d3-a456-426614174000' }));
    cli.cleanup();
    expect(error.sessionInvalid).toBe(true);
    expect(error.message).toContain('apiKeyHelper failed: [redacted]');
    for (const leaked of ['helper-stdout-key', 'hunter2', 's3cr3t']) expect(error.message).not.toContain(leaked);
  }, 60_000);
});
