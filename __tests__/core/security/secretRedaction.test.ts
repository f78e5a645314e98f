/**
 * Issue 26, finding 5: secrets of every common shape are redacted wherever an error or a tool output
 * is shown, saved in a chat note or logged. Each shape goes through the real paths: a provider's
 * error body over real HTTP to the chat controller (the turn's error and the saved chat note), a
 * tool's output (readNote over a real markdown file, fetchUrl over a real HTTP server); and every
 * rule is linear on hostile input (1 MB).
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { redactText } from '../../../src/core/security/redact';
import { SECRET_RULES } from '../../../src/core/security/secretRules';
import { SourceCatalog } from '../../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall } from '../../../src/core/agent/toolbox';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import { makeController, settingsFor } from '../chat/controllerHarness';
import { VAULT } from '../../helpers/paths';

/** Each shape: the text as it would appear, and the secret part that must never survive. */
const SHAPES: ReadonlyArray<{ name: string; text: string; secret: string }> = [
  { name: 'AWS access key id', text: 'credentials: AKIAIOSFODNN7EXAMPLE (from ~/.aws/credentials)', secret: 'AKIAIOSFODNN7EXAMPLE' },
  { name: 'AWS secret access key (credentials file)', text: '[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  { name: 'AWS secret access key (JSON)', text: '{"SecretAccessKey": "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"}', secret: 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY' },
  { name: 'OAuth JSON accessToken', text: '{"accessToken":"ya29.a0AfH6SMBx3-example_token.value","expiresAt":1700000000}', secret: 'ya29.a0AfH6SMBx3-example_token.value' },
  { name: 'OAuth JSON refreshToken', text: '{ "refreshToken": "1//0gLx-example-refresh-token-XYZ" }', secret: '1//0gLx-example-refresh-token-XYZ' },
  { name: 'OAuth JSON refresh_token', text: '{"refresh_token":"rt-9f8e7d6c5b4a39281706","token_type":"bearer"}', secret: 'rt-9f8e7d6c5b4a39281706' },
  { name: 'x-api-key header', text: 'request headers: x-api-key: 3f9a8b7c6d5e4f3a2b1c0d9e', secret: '3f9a8b7c6d5e4f3a2b1c0d9e' },
  { name: 'Authorization: Basic', text: 'Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==', secret: 'dXNlcjpodW50ZXIyaHVudGVyMg==' },
  { name: 'Basic credentials alone', text: 'sent Basic dXNlcjpodW50ZXIy to the proxy', secret: 'dXNlcjpodW50ZXIy' },
  { name: 'Authorization: Bearer', text: 'Authorization: Bearer opaque0123456789token', secret: 'opaque0123456789token' },
  { name: '?api_key= in a URL', text: 'GET https://api.example.com/v1/data?api_key=9d8c7b6a5f4e3d2c1b0a&format=json failed', secret: '9d8c7b6a5f4e3d2c1b0a' },
  { name: 'key= in a URL', text: 'https://maps.example.com/geo?q=paris&key=abc123def456ghi', secret: 'abc123def456ghi' },
  { name: 'token= in a URL', text: 'wss://stream.example.com/live?token=zzz999yyy888xxx', secret: 'zzz999yyy888xxx' },
  { name: 'password in a URL', text: 'proxy http://alice:s3cr3t-pass@proxy.example.com:8080 refused', secret: 's3cr3t-pass' },
  {
    name: 'PEM private key',
    text: 'key file:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq98PMHhM3lqu5Bx2Yl\nq2Vtm9VfHDM8p1gkEXAMPLEBODY0123456==\n-----END RSA PRIVATE KEY-----\nthe end',
    secret: 'MIIEpAIBAAKCAQEA7bq98PMHhM3lqu5Bx2Yl',
  },
  { name: 'PEM private key, cut', text: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', secret: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ' },
  { name: 'Google API key', text: 'https://www.googleapis.com/x?alt=json with AIzaSyA-1234567890abcdefghijklmnopqrstu', secret: 'AIzaSyA-1234567890abcdefghijklmnopqrstu' },
  { name: 'GitHub ghp_ token', text: 'token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 expired', secret: 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789' },
  { name: 'GitHub gho_ token', text: 'gho_16C7e42F292c6912E7710c838347Ae178B4a was revoked', secret: 'gho_16C7e42F292c6912E7710c838347Ae178B4a' },
  { name: 'GitHub fine-grained token', text: `github_pat_11ABCDEFG0${'a1B2c3D4e5'.repeat(7)}_xyz0123456`, secret: 'github_pat_11ABCDEFG0a1B2c3D4e5' },
  { name: 'OpenAI sk- key', text: 'Incorrect API key provided: sk-abcdefghijklmnopqrstuvwxyz012345.', secret: 'sk-abcdefghijklmnopqrstuvwxyz012345' },
  { name: 'OpenAI sk-proj- key', text: 'key sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56 is disabled', secret: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56' },
  { name: 'Anthropic sk-ant- key', text: 'invalid x-api-key sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AA', secret: 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AA' },
  { name: 'Slack bot token', text: 'slack: xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', secret: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx' },
  { name: 'Slack webhook', text: 'posting to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', secret: 'T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX' },
  {
    name: 'JWT',
    text: 'id_token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c rejected',
    secret: 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0',
  },
];

describe('redactText: every shape (issue 26)', () => {
  test.each(SHAPES)('$name', ({ text, secret }) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  test('ordinary text is left as it is: every note of the test vault, and prose near the shapes', async () => {
    const notes = await new FsVault(VAULT).listMarkdown();
    for (const note of notes) {
      const text = await fs.readFile(path.join(VAULT, note), 'utf8');
      expect([note, redactText(text)]).toEqual([note, text]);
    }
    for (const prose of [
      'Basic principles of composting; a Bearer of news.',
      'Token Ring networks and the API key concept.',
      'See https://example.com/search?q=tomatoes&page=2 for more.',
      'The key=value pairs of a config file.',
      'ssh-keygen writes a PRIVATE KEY file; never share it.',
      'risk-averse and task-oriented sk- prefixes',
      'The eyJ prefix starts every JWT.',
    ]) {
      expect(redactText(prose)).toBe(prose);
    }
  });

  test('linear time: each rule, and the whole, on 1 MB of hostile input', () => {
    const MB = 1 << 20;
    const fill = (piece: string) => piece.repeat(Math.ceil(MB / piece.length)).slice(0, MB);
    const hostile = [
      'a',
      ' ',
      '-',
      '/',
      'AKIA',
      'AKIAA',
      'aws_secret_access_key=',
      'aws_secret_access_key= ',
      'AIza',
      'ghp_',
      'github_pat_',
      'sk-',
      'sk-a',
      'xoxb-',
      'hooks.slack.com/services/',
      'eyJ',
      'eyJa.',
      'eyJaaaaaaaaaaaa.eyJ',
      'Bearer ',
      'Bearer',
      'Basic ',
      'authorization: ',
      'x-api-key:',
      'x-api-key: "',
      '"accessToken":"',
      '"accessToken": ',
      '?api_key=',
      '&key=a',
      '//',
      '//a:',
      '//a:b',
      '-----BEGIN RSA PRIVATE KEY-----',
      '-----BEGIN RSA PRIVATE KEY-----\n-----END',
      '-----BEGIN ',
    ];
    let worst = 0;
    for (const piece of hostile) {
      const text = fill(piece);
      for (const rule of SECRET_RULES) {
        const start = performance.now();
        text.replace(rule.pattern, '');
        const ms = performance.now() - start;
        worst = Math.max(worst, ms);
        expect([piece.slice(0, 20), rule.id, ms < 1000]).toEqual([piece.slice(0, 20), rule.id, true]);
      }
      const start = performance.now();
      redactText(text);
      expect([piece.slice(0, 20), performance.now() - start < 3000]).toEqual([piece.slice(0, 20), true]);
    }
  });
});

describe('through the real paths', () => {
  let server: http.Server;
  let base = '';
  let errorBody = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      if (req.url?.startsWith('/v1/')) {
        // An OpenAI-compatible endpoint that rejects the request and echoes a secret in its error.
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: errorBody, type: 'invalid_request_error', code: 'bad_request' } }));
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(SHAPES.map((s) => s.text).join('\n\n'));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test.each(SHAPES)('a provider error text, the turn shown and the saved chat note: $name', async ({ text, secret }) => {
    errorBody = `Invalid request: ${text}`;
    const { controller, files } = makeController(settingsFor(base));
    await controller.send('Hello?');
    await controller.flush();
    const turn = controller.state.conversation.turns.at(-1);
    expect(turn?.status).toBe('failed');
    expect(turn?.error).toContain('[redacted]');
    expect(turn?.error).not.toContain(secret);
    expect(files.only()).not.toContain(secret);
  });

  test('tool outputs: readNote over a markdown file, fetchUrl over HTTP, and a tool that fails', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-secrets-'));
    try {
      await fs.writeFile(path.join(dir, 'Setup.md'), `# Setup\n\n${SHAPES.map((s) => s.text).join('\n\n')}\n`);
      const host = fsToolHost({ vault: new FsVault(dir), search: null, allowLocalAddresses: true });
      const ctx = { host, signal: new AbortController().signal, sources: new SourceCatalog() };
      const read = await runToolCall({ id: 'a', name: 'readNote', args: { path: 'Setup.md' } }, AGENT_TOOLS, ctx);
      const page = await runToolCall({ id: 'b', name: 'fetchUrl', args: { url: `${base}/notes.txt` } }, AGENT_TOOLS, ctx);
      const failing = await runToolCall({ id: 'c', name: 'fetchUrl', args: { url: `${base}/v1/x?api_key=9d8c7b6a5f4e3d2c1b0a` } }, AGENT_TOOLS, ctx);
      for (const out of [read.content, page.content]) {
        expect(out).toContain('[redacted]');
        for (const { secret } of SHAPES) expect([secret, out.includes(secret)]).toEqual([secret, false]);
      }
      expect(failing.isError).toBe(true);
      expect(failing.content).not.toContain('9d8c7b6a5f4e3d2c1b0a');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
