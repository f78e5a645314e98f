import { redactSecrets } from '../errors';

/** What any CLI child needs to start, find its user's folders and reach the network (Codex's list starts from it). */
export const PROCESS_NAMES: readonly string[] = [
  // The process and its user (Unix).
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'LANG', 'LANGUAGE', 'TERM', 'TZ',
  // Windows: a child process needs these to start and to find the user's profile.
  'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'TEMP', 'TMP', 'USERPROFILE', 'USERNAME', 'HOMEDRIVE', 'HOMEPATH',
  'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA', 'PROGRAMFILES',
  // Where config lives on Linux.
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_RUNTIME_DIR',
  // Network: proxies (any case) and certificates.
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
];
/**
 * The environment the Claude Code CLI runs with, and the credentials kept out of what it reports.
 *
 * The CLI gets only what it needs from Strata's environment (an Obsidian desktop process may hold
 * any credential of the user's shell): to start and find its home, config and temp folders, to
 * pick a language, to reach the API (proxies, extra CA certificates), and the variables it reads
 * itself (Claude Code's documented settings: ANTHROPIC_*, CLAUDE_*, DISABLE_* and a few
 * unprefixed ones). Cloud credentials go only when the CLI is told to use that cloud.
 */
const CLI_NAMES = new Set([
  ...PROCESS_NAMES,
  // Claude Code settings without a prefix.
  'API_TIMEOUT_MS', 'MAX_THINKING_TOKENS', 'MAX_MCP_OUTPUT_TOKENS', 'MCP_TIMEOUT', 'MCP_TOOL_TIMEOUT', 'USE_BUILTIN_RIPGREP',
]);
const CLI_PREFIXES = ['LC_', 'ANTHROPIC_', 'CLAUDE_', 'DISABLE_'];
/** Amazon Bedrock (CLAUDE_CODE_USE_BEDROCK): AWS credentials, region and profile. */
const BEDROCK_PREFIXES = ['AWS_'];
/** Google Vertex AI (CLAUDE_CODE_USE_VERTEX): project, regions and credentials. */
const VERTEX_NAMES = new Set(['CLOUD_ML_REGION', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'GCLOUD_PROJECT']);
const VERTEX_PREFIXES = ['VERTEX_REGION_', 'CLOUDSDK_'];

type Env = Readonly<Record<string, string | undefined>>;

const isOn = (value: string | undefined) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';

/** The CLI's environment: the variables of `parent` it needs (names compared case-insensitively, as Windows does). */
export function cliEnvironment(parent: Env): Record<string, string> {
  const upper = new Map(Object.entries(parent).map(([name, value]) => [name.toUpperCase(), value]));
  const bedrock = isOn(upper.get('CLAUDE_CODE_USE_BEDROCK'));
  const vertex = isOn(upper.get('CLAUDE_CODE_USE_VERTEX'));
  const out: Record<string, string> = {};
  for (const name of Object.keys(parent).sort()) {
    const value = parent[name];
    if (value === undefined) continue;
    const key = name.toUpperCase();
    const starts = (prefixes: readonly string[]) => prefixes.some((p) => key.startsWith(p));
    if (
      CLI_NAMES.has(key) ||
      starts(CLI_PREFIXES) ||
      (bedrock && starts(BEDROCK_PREFIXES)) ||
      (vertex && (VERTEX_NAMES.has(key) || starts(VERTEX_PREFIXES)))
    ) {
      out[name] = value;
    }
  }
  return out;
}

/** Names that say they hold a credential. */
const SECRET_NAME = /key|token|secret|passw(?:or)?d|credential/i;
/** Shorter values are left alone: redacting `1` or `abc` everywhere would garble messages. */
const MIN_SECRET = 8;

/** Values of every variable of the given environments whose name says it holds a credential, longest first. */
export function secretValues(...envs: ReadonlyArray<Env | undefined>): string[] {
  const values = new Set<string>();
  for (const env of envs) {
    for (const [name, value] of Object.entries(env ?? {})) {
      if (value !== undefined && value.length >= MIN_SECRET && SECRET_NAME.test(name)) values.add(value);
    }
  }
  return [...values].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * CLI text (its stderr, its error results) with credentials removed: the given secrets, key-shaped
 * text (redactSecrets), passwords in URLs (a proxy's), and whatever follows an apiKeyHelper failure
 * (the CLI prints the helper's output, which may hold the key, over as many lines as it had).
 */
export function redactCliText(text: string, secrets: readonly string[]): string {
  const helper = /apiKeyHelper[^:\n]*:/i.exec(text);
  const cut = helper ? `${text.slice(0, helper.index + helper[0].length)} [redacted]` : text;
  return redactSecrets(cut, secrets).replace(/(\/\/[^\s/:@]+:)[^\s/@]+@/g, '$1[redacted]@');
}
