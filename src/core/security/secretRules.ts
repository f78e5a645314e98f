/**
 * Secret shapes redacted from every error and tool output shown, saved in a chat note or logged
 * (issue 26). Adapted from gitleaks' default rules (config/gitleaks.toml, github.com/gitleaks/gitleaks,
 * MIT licence, commit 009e025): the same prefixes and lengths, rewritten for JavaScript and for
 * linear time. Each rule starts where a token starts (a lookbehind on the token's own characters,
 * so a long run is tried once, not at every character), and every repetition between two parts is
 * bounded, so no input makes a rule backtrack more than a constant per character.
 *
 * A rule's `pattern` matches `(kept)(secret)`: the first group (may be empty) stays, the second
 * becomes [redacted]. PEM private keys are not a regex (a body can be any length): see redact.ts.
 */
export interface SecretRule {
  /** The gitleaks rule id it adapts, or a name of ours. */
  readonly id: string;
  readonly pattern: RegExp;
}

const T = 'A-Za-z0-9'; // token characters, in classes below
const START = (chars: string) => `(?<![${chars}])`;

export const SECRET_RULES: readonly SecretRule[] = [
  // gitleaks aws-access-token: AKIA/ASIA/ABIA/ACCA/A3T + 16.
  { id: 'aws-access-token', pattern: new RegExp(`${START(T)}()((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![${T}])`, 'g') },
  // AWS secret access key after its name (gitleaks generic-api-key keyed on aws): 40 base64 characters.
  {
    id: 'aws-secret-access-key',
    pattern: new RegExp(`${START(T + '_')}((?:aws)?_?secret_?access_?key(?:_?id)?["']?[ \\t]{0,8}[:=][ \\t]{0,8}["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`, 'gi'),
  },
  // gitleaks gcp-api-key.
  { id: 'gcp-api-key', pattern: new RegExp(`${START(T + '_-')}()(AIza[\\w-]{35})(?![\\w-])`, 'g') },
  // gitleaks github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat.
  { id: 'github-token', pattern: new RegExp(`${START(T + '_')}()((?:ghp|gho|ghu|ghs|ghr)_[${T}]{36,255}|github_pat_\\w{22,255})`, 'g') },
  // gitleaks anthropic-api-key, anthropic-admin-api-key, openai-api-key (sk-, sk-proj-, sk-svcacct-, sk-admin-), OpenRouter sk-or-.
  { id: 'sk-api-key', pattern: new RegExp(`${START(T + '_-')}()(sk-(?:ant-|proj-|svcacct-|admin-|or-)?[A-Za-z0-9_-]{6,})`, 'g') },
  // gitleaks slack-bot-token, slack-user-token, slack-legacy-*, slack-config-*-token, slack-app-token.
  { id: 'slack-token', pattern: new RegExp(`${START(T + '_-')}()(xox[abeoprs]-(?:\\d-)?[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})`, 'g') },
  // gitleaks slack-webhook-url.
  { id: 'slack-webhook-url', pattern: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9+/]{20,})/g },
  // gitleaks jwt: header.payload[.signature], both base64url JSON objects ("ey").
  { id: 'jwt', pattern: new RegExp(`${START(T + '_-')}()(ey[A-Za-z0-9_-]{10,}\\.ey[A-Za-z0-9_/\\\\-]{10,}(?:\\.[A-Za-z0-9_/\\\\-]{6,}={0,2})?)`, 'g') },
  // gitleaks curl-auth-header: an Authorization header's credential, whatever its scheme.
  {
    id: 'authorization-header',
    pattern: new RegExp(`${START(T + '_-')}(authorization["']?[ \\t]{0,8}[:=][ \\t]{0,8}["']?(?:(?:Basic|Bearer|Token|Digest)[ \\t]{1,8})?)([^\\s"',;]{6,})`, 'gi'),
  },
  // A bearer token anywhere (an error echoing a request); Basic credentials (base64 with a digit or a sign, not a word).
  { id: 'bearer-token', pattern: new RegExp(`${START(T)}(Bearer[ \\t]{1,8})([A-Za-z0-9._~+/=-]{8,})`, 'gi') },
  { id: 'basic-auth', pattern: new RegExp(`${START(T)}(Basic[ \\t]{1,8})((?=[A-Za-z]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2})`, 'g') },
  // An API-key header or field: x-api-key, api-key, x-goog-api-key, x-auth-token, apikey.
  {
    id: 'api-key-header',
    pattern: new RegExp(`${START(T + '_-')}((?:x-)?(?:goog-|anthropic-)?(?:api[-_]?key|auth[-_]token|access[-_]?key)["']?[ \\t]{0,8}[:=][ \\t]{0,8}["']?)([^\\s"',;&]{6,})`, 'gi'),
  },
  // OAuth JSON (a credentials file, an error echoing one): accessToken, refreshToken, id_token, client_secret.
  {
    id: 'oauth-json',
    pattern: /("(?:access|refresh|id)_?token"[ \t]{0,8}:[ \t]{0,8}"|"client_?secret"[ \t]{0,8}:[ \t]{0,8}")([^"\\\s]{6,})/gi,
  },
  // A credential in a URL's query: ?api_key=, &key=, token=, access_token=, sig=, password=.
  {
    id: 'url-query-secret',
    pattern: /([?&;](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|secret|client[_-]?secret|password|passwd|sig|signature)=)([^&#\s"'<>]{3,})/gi,
  },
  // A password in a URL (https://user:password@host: a proxy's, a database's).
  { id: 'url-password', pattern: /(\/\/[^\s/:@]{1,256}:)([^\s/@]{1,256})(?=@)/g },
];

/** The markers of a PEM private key (gitleaks private-key): its body is redacted, whatever its length. */
export const PEM_PRIVATE_KEY_BEGIN = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/g;
export const PEM_END = '-----END';
