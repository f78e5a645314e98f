/**
 * Starts the local provider server (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages)
 * for the workbench and manual tries:  npx tsx scripts/provider-server.ts [--port N] [--model M] [--quiet] [--dump FILE]
 * Prints the URL; Ctrl-C closes it.
 */
import { writeFileSync } from 'node:fs';
import { startProviderServer } from '../testing/providerServer';
import { parseArgs } from './args';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), ['port', 'model', 'dump'], ['quiet']);
  const port = args.options.port === undefined ? 0 : Number(args.options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer between 0 and 65535, got ${args.options.port}`);
  const quiet = args.flags.has('quiet');
  const server = await startProviderServer({
    port,
    model: args.options.model,
    log: quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(
    [
      `OpenAI base URL:    ${server.url}/v1`,
      `Anthropic base URL: ${server.url}`,
      'Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    // --dump FILE: the recorded requests (credentials already redacted), for inspecting a client.
    if (args.options.dump !== undefined) writeFileSync(args.options.dump, JSON.stringify(server.requests, null, 2));
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`provider-server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
