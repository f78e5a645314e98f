/**
 * `npm run workbench [-- --vault DIR] [--port N] [--theme dark] [--plugin main.js] [--no-provider]`
 *
 * Starts the local provider server and the workbench server over a copy of examples/vault (or over
 * --vault DIR itself: the plugin writes to it), then prints the URL to open in a browser.
 */
import { startProviderServer, type ProviderServer } from '../testing/providerServer';
import { buildPage, buildPlugin, type BundleResult } from './build';

/** A command-line tool talks on stdout. */
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}
import { startWorkbenchServer } from './server';
import { existsSync } from 'node:fs';
import { copyVault, dataJsonPath, providerSettings, WORKBENCH_SECRETS, writePluginData } from './vaultCopy';

interface Args {
  vault?: string;
  port: number;
  theme: 'light' | 'dark';
  plugin?: string;
  provider: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { port: 5181, theme: 'light', provider: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--vault') args.vault = value();
    else if (a === '--port') args.port = Number(value());
    else if (a === '--theme') args.theme = value() === 'dark' ? 'dark' : 'light';
    else if (a === '--plugin') args.plugin = value();
    else if (a === '--no-provider') args.provider = false;
    else if (a === '--help' || a === '-h') {
      say('Usage: npm run workbench -- [--vault DIR] [--port N] [--theme light|dark] [--plugin main.js] [--no-provider]');
      process.exit(0);
    } else throw new Error(`Unknown argument: ${a}`);
  }
  if (!Number.isInteger(args.port) || args.port < 0) throw new Error('--port must be a whole number');
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const [page, plugin] = await Promise.all([buildPage(), args.plugin ? Promise.resolve<BundleResult>({ cached: true }) : buildPlugin()]);
  if (page.error) throw new Error(`The workbench page did not build:\n${page.error}`);
  if (plugin.error) say(`Warning: the plugin did not build (the page will say so):\n${plugin.error}`);

  const vaultDir = args.vault ?? copyVault();
  let provider: ProviderServer | null = null;
  if (args.provider) provider = await startProviderServer({ log: (line) => say(`[provider] ${line}`) });
  const server = await startWorkbenchServer({ vaultDir, providerUrl: provider?.url ?? null, port: args.port, pluginBundle: args.plugin, secrets: WORKBENCH_SECRETS });
  // A vault without plugin settings gets providers that point at the local provider server.
  if (!existsSync(dataJsonPath(vaultDir))) writePluginData(vaultDir, providerSettings(`${server.url}/provider`));

  say(`Strata workbench: ${server.url}/${args.theme === 'dark' ? '?theme=dark' : ''}`);
  say(`  vault:    ${vaultDir}${args.vault ? '' : ' (a copy of examples/vault)'}`);
  say(`  provider: ${provider ? `${provider.url} (proxied at ${server.url}/provider)` : 'none'}`);
  say('  The plugin is rebuilt from src/ when the page is reloaded. Ctrl+C stops.');

  const stop = async (): Promise<void> => {
    await server.close();
    await provider?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
