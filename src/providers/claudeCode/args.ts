import type { ProviderConfig } from '../../core/ports/chatModel';
import type { CliPrompt } from '../cli/prompt';

/**
 * Arguments for one headless run (checked against claude 2.1.330 `--help` and real runs):
 * - `-p`: print mode, one turn, then exit; the prompt comes on stdin (no argv length limit).
 * - `--output-format stream-json --verbose`: one JSON event per line; the CLI refuses stream-json
 *   in print mode without --verbose.
 * - `--include-partial-messages`: `stream_event` lines with the API's text deltas (token streaming).
 * - `--model`: the configured model (the CLI's default otherwise).
 * - `--tools ""`: no built-in tools. Strata sends the context itself and shows text; a tool run in
 *   print mode would stall on permissions or act on the vault unasked.
 * - `--system-prompt`: Strata's static prompt, on the first run of a session only. The CLI records
 *   it with the session and sends it on every resumed request, so it is never passed again.
 * - `--resume <id>`: continue the session; its history is on disk in the CLI's project folder.
 */
export function cliArgs(config: ProviderConfig, prompt: CliPrompt, sessionId: string | undefined): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];
  if (config.model) args.push('--model', config.model);
  args.push('--tools', '');
  if (sessionId) args.push('--resume', sessionId, '--fork-session');
  else if (prompt.systemPrompt !== undefined) args.push('--system-prompt', prompt.systemPrompt);
  return args;
}
