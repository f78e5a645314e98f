import type { ProviderConfig } from '../../core/ports/chatModel';

/** The variable the API key reaches the CLI in (the custom model provider's env_key): never in argv. */
export const CODEX_KEY_VARIABLE = 'STRATA_CODEX_API_KEY';

/** Strata's model provider entry in Codex's config (set with -c, so no config file is written). */
const PROVIDER = 'strata';
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * Codex features turned off for every run (`codex features list`, 0.171): the shell (Codex could
 * otherwise read any file of the computer, sandbox or not), goals, sub-agents, image generation,
 * apps, plugins, hooks, the sleep tool and tool suggestions. What is left is a model answering from
 * what Strata sends.
 */
export const DISABLED_FEATURES = ['shell_tool', 'goals', 'multi_agent', 'image_generation', 'apps', 'plugins', 'hooks', 'sleep_tool', 'tool_suggest', 'skill_search'];

/**
 * A TOML basic string for a `-c key=value` override (Codex parses the value as TOML). JSON's
 * escapes are TOML's, except that TOML also wants DEL escaped and has no lone surrogates.
 */
export function tomlString(text: string): string {
  return JSON.stringify(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')).replace(/\u007f/g, '\\u007f');
}

export interface CodexRun {
  /** Strata's static system prompt: on the first run of a thread only (the thread keeps it). */
  readonly instructions?: string;
  /** The thread to resume. */
  readonly threadId?: string;
  /** An API key is passed in CODEX_KEY_VARIABLE. */
  readonly keyed: boolean;
}

/**
 * Arguments for one headless run (checked against codex-cli 0.171.0 `exec --help` and real runs):
 * - `exec` (first turn) or `exec resume <thread id>` (later turns); `-` reads the prompt from stdin
 *   (no argv length limit). `--json`: one event per line on stdout.
 * - `-m`: the configured model.
 * - `approval_policy="never"`, `sandbox_mode="read-only"`: Codex is a coding agent with a shell; in
 *   Strata it answers from what it is sent. It never waits on an approval prompt nobody sees, and
 *   whatever it runs cannot write (resume has no --sandbox flag: the config key works for both).
 *   `--disable` removes the shell and its other tools (DISABLED_FEATURES) besides.
 *   `web_search="disabled"`: Strata does its own retrieval.
 * - No environment context, apps or collaboration-mode instructions, no AGENTS.md: Codex would add
 *   them to every turn (its cwd, shell and date), noise in a notes conversation.
 * - `instructions`: Strata's system prompt replaces Codex's coding-agent instructions, once: the
 *   thread records it and sends it on every resumed request.
 * - With a base URL or an API key: a custom model provider speaking the Responses API, its key
 *   read from CODEX_KEY_VARIABLE. Without either: Codex's own OpenAI provider and the login kept
 *   in CODEX_HOME (`codex login`).
 * - `--skip-git-repo-check`: the working directory is a plugin-owned empty folder, not a repository.
 */
export function codexArgs(config: ProviderConfig, run: CodexRun): string[] {
  const args = run.threadId ? ['exec', 'resume'] : ['exec'];
  args.push('--json', '--skip-git-repo-check');
  if (config.model) args.push('-m', config.model);
  const set = (key: string, value: string) => args.push('-c', `${key}=${value}`);
  set('approval_policy', '"never"');
  set('sandbox_mode', '"read-only"');
  set('web_search', '"disabled"');
  set('include_environment_context', 'false');
  set('include_apps_instructions', 'false');
  set('include_collaboration_mode_instructions', 'false');
  set('project_doc_max_bytes', '0');
  set('check_for_update_on_startup', 'false');
  for (const feature of DISABLED_FEATURES) args.push('--disable', feature);
  const baseUrl = config.baseUrl?.trim();
  if (baseUrl || run.keyed) {
    set('model_provider', tomlString(PROVIDER));
    set(`model_providers.${PROVIDER}.name`, tomlString('Strata'));
    set(`model_providers.${PROVIDER}.base_url`, tomlString(baseUrl || OPENAI_BASE_URL));
    set(`model_providers.${PROVIDER}.wire_api`, '"responses"');
    if (run.keyed) set(`model_providers.${PROVIDER}.env_key`, tomlString(CODEX_KEY_VARIABLE));
  }
  if (!run.threadId && run.instructions !== undefined) set('instructions', tomlString(run.instructions));
  if (run.threadId) args.push(run.threadId);
  args.push('-');
  return args;
}
