import { PROCESS_NAMES } from '../cli/environment';

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
