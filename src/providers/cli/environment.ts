import { redactSecrets } from '../errors';

/**
 * What the CLI providers (Claude Code, Codex) share about a child's environment: the variables any
 * child process needs, and the credentials kept out of whatever the CLI reports back.
 */

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

type Env = Readonly<Record<string, string | undefined>>;

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
