import { PROCESS_NAMES } from '../cli/environment';
import { CODEX_KEY_VARIABLE } from './args';

type Env = Readonly<Record<string, string | undefined>>;

const NAMES = new Set([...PROCESS_NAMES, 'RUST_LOG']);
/** Codex's own settings (CODEX_HOME excepted: Strata sets it) and locale. */
const PREFIXES = ['LC_', 'CODEX_'];

/**
 * The Codex CLI's environment: what a child process needs from Strata's (an Obsidian desktop
 * process may hold any credential of the user's shell, so nothing else goes), CODEX_HOME set to
 * the plugin's own folder (the user's ~/.codex, its login, config and sessions, stay untouched),
 * and the API key, when there is one, in the variable the custom model provider reads.
 */
export function codexEnvironment(parent: Env, home: string, apiKey: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(parent).sort()) {
    const value = parent[name];
    const key = name.toUpperCase();
    if (value === undefined || key === 'CODEX_HOME' || key === CODEX_KEY_VARIABLE) continue;
    if (NAMES.has(key) || PREFIXES.some((p) => key.startsWith(p))) out[name] = value;
  }
  out.CODEX_HOME = home;
  if (apiKey) out[CODEX_KEY_VARIABLE] = apiKey;
  return out;
}
