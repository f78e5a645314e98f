/**
 * The SDK modules Strata's bundle carries in name only (issue 30). The OpenAI and Anthropic clients
 * wire every resource of their APIs in their constructors (files, batches, fine-tuning, vector
 * stores, agents, sessions...), so esbuild keeps all of them although LangChain's chat models call
 * only chat completions, responses and messages. At bundle time (scripts/bundlePlugins.cjs):
 * - an `inert` module's classes become empty resources: the client still makes them, they carry no
 *   method (calling one is "not a function");
 * - a `throws` module's exports become functions that throw if ever called or made: helpers for
 *   calls LangChain never makes (the SDKs' `.stream()` and `.runTools()` runners, OpenAI's zod
 *   helpers for zod 3 schemas, Anthropic's credential chain, reached only without an API key, and
 *   Strata always gives one).
 * Each entry lists the module's exports in full (__tests__/providers/bundledClients.test.ts checks
 * them against the installed SDK, and esbuild fails the build if an importer wants another name).
 * Plain CommonJS: the .mjs config and the TypeScript builds require it as it is.
 */
const path = require('node:path');

/** @typedef {{ pkg: string, file: string, kind: 'inert' | 'throws', exports: string[], values?: Record<string, unknown> }} UnusedModule */

const inert = (pkg, file, ...exports) => ({ pkg, file, kind: 'inert', exports });
const throws = (pkg, file, exports, values) => ({ pkg, file, kind: 'throws', exports, ...(values ? { values } : {}) });

const OPENAI = 'openai';
const ANTHROPIC = '@anthropic-ai/sdk';

/** @type {UnusedModule[]} */
const UNUSED_SDK_MODULES = [
  // OpenAI: LangChain calls chat.completions (create, parse), responses (create, parse), and, outside
  // the chat models Strata makes, completions, embeddings, moderations and images; models is kept too.
  inert(OPENAI, 'resources/admin/admin.mjs', 'Admin'),
  inert(OPENAI, 'resources/audio/audio.mjs', 'Audio'),
  inert(OPENAI, 'resources/batches.mjs', 'Batches'),
  inert(OPENAI, 'resources/beta/beta.mjs', 'Beta'),
  inert(OPENAI, 'resources/containers/containers.mjs', 'Containers'),
  inert(OPENAI, 'resources/conversations/conversations.mjs', 'Conversations'),
  inert(OPENAI, 'resources/evals/evals.mjs', 'Evals'),
  inert(OPENAI, 'resources/files.mjs', 'Files'),
  inert(OPENAI, 'resources/fine-tuning/fine-tuning.mjs', 'FineTuning'),
  inert(OPENAI, 'resources/graders/graders.mjs', 'Graders'),
  inert(OPENAI, 'resources/realtime/realtime.mjs', 'Realtime'),
  inert(OPENAI, 'resources/skills/skills.mjs', 'Skills'),
  inert(OPENAI, 'resources/uploads/uploads.mjs', 'Uploads'),
  inert(OPENAI, 'resources/vector-stores/vector-stores.mjs', 'VectorStores'),
  inert(OPENAI, 'resources/videos.mjs', 'Videos'),
  inert(OPENAI, 'resources/webhooks/webhooks.mjs', 'Webhooks'),
  throws(OPENAI, 'lib/AssistantStream.mjs', ['AssistantStream']),
  throws(OPENAI, 'lib/ChatCompletionStream.mjs', ['ChatCompletionStream', 'makeChatCompletionReadableStreamMessageChunk']),
  throws(OPENAI, 'lib/ChatCompletionRunner.mjs', ['ChatCompletionRunner']),
  throws(OPENAI, 'lib/ChatCompletionStreamingRunner.mjs', ['ChatCompletionStreamingRunner']),
  throws(OPENAI, 'lib/responses/ResponseStream.mjs', ['ResponseStream']),
  // Reached only for a zod 3 schema given as a response format; Strata gives JSON Schema.
  throws(OPENAI, 'helpers/zod.mjs', ['zodResponseFormat', 'zodTextFormat', 'zodFunction', 'zodResponsesFunction', 'zodRealtimeFunction']),

  // Anthropic: LangChain calls messages.create (beta.messages.create when a request has betas).
  inert(ANTHROPIC, 'resources/files.mjs', 'Files'),
  inert(ANTHROPIC, 'resources/skills/skills.mjs', 'Skills'),
  inert(ANTHROPIC, 'resources/messages/batches.mjs', 'Batches'),
  inert(ANTHROPIC, 'resources/beta/messages/batches.mjs', 'Batches'),
  inert(ANTHROPIC, 'resources/beta/agents/agents.mjs', 'Agents'),
  inert(ANTHROPIC, 'resources/beta/deployment-runs.mjs', 'DeploymentRuns'),
  inert(ANTHROPIC, 'resources/beta/deployments.mjs', 'Deployments'),
  inert(ANTHROPIC, 'resources/beta/dreams.mjs', 'Dreams'),
  inert(ANTHROPIC, 'resources/beta/environments/environments.mjs', 'Environments'),
  inert(ANTHROPIC, 'resources/beta/files.mjs', 'Files'),
  inert(ANTHROPIC, 'resources/beta/memory-stores/memory-stores.mjs', 'MemoryStores'),
  inert(ANTHROPIC, 'resources/beta/organization/organization.mjs', 'Organization'),
  inert(ANTHROPIC, 'resources/beta/sessions/sessions.mjs', 'Sessions'),
  inert(ANTHROPIC, 'resources/beta/skills/skills.mjs', 'Skills'),
  inert(ANTHROPIC, 'resources/beta/tunnels/tunnels.mjs', 'Tunnels'),
  inert(ANTHROPIC, 'resources/beta/user-profiles.mjs', 'UserProfiles'),
  inert(ANTHROPIC, 'resources/beta/vaults/vaults.mjs', 'Vaults'),
  inert(ANTHROPIC, 'resources/beta/webhooks.mjs', 'Webhooks'),
  throws(ANTHROPIC, 'lib/MessageStream.mjs', ['MessageStream']),
  throws(ANTHROPIC, 'lib/BetaMessageStream.mjs', ['BetaMessageStream']),
  throws(ANTHROPIC, 'lib/tools/BetaToolRunner.mjs', ['BetaToolRunner']),
  throws(ANTHROPIC, 'lib/tools/SessionToolRunner.mjs', ['SessionToolRunner', 'MANAGED_AGENTS_BETA', 'DEFAULT_MAX_IDLE_MS'], {
    MANAGED_AGENTS_BETA: 'managed-agents-2026-04-01',
    DEFAULT_MAX_IDLE_MS: 60000,
  }),
  throws(ANTHROPIC, 'lib/environments/worker.mjs', ['EnvironmentWorker', 'sessionsTokenFromSecret']),
  // The client resolves credentials (config files, OAuth, OIDC federation) only when it has no API key.
  throws(ANTHROPIC, 'lib/credentials/credential-chain.mjs', ['resolveCredentialsFromConfig', 'defaultCredentials']),
  throws(ANTHROPIC, 'lib/credentials/token-cache.mjs', ['TokenCache']),
];

/** `node_modules/<pkg>/<file>` as a path suffix, either separator. */
function suffixPattern(entry) {
  return `[\\\\/]node_modules[\\\\/]${`${entry.pkg}/${entry.file}`.split('/').map(escapeRegExp).join('[\\\\/]')}`;
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The stub module's source for an entry. */
function stubSource(entry) {
  const where = `${entry.pkg}/${entry.file}`;
  const values = entry.values ?? {};
  return entry.exports
    .map((name) => {
      if (name in values) return `export const ${name} = ${JSON.stringify(values[name])};`;
      if (entry.kind === 'inert') return `export class ${name} { constructor(client) { this._client = client; } }`;
      // A function, so it serves as a class to extend, to make with `new`, or to call.
      return `export function ${name}() { throw new Error(${JSON.stringify(`${name} (${where}) is not in Strata's bundle`)}); }`;
    })
    .join('\n');
}

function unusedSdkModulesPlugin(entries = UNUSED_SDK_MODULES) {
  const patterns = entries.map((entry) => ({ entry, re: new RegExp(`${suffixPattern(entry)}$`) }));
  const filter = new RegExp(`(${patterns.map((p) => p.re.source).join('|')})`);
  return {
    name: 'strata-unused-sdk-modules',
    setup(build) {
      build.onLoad({ filter }, (args) => {
        const hit = patterns.find((p) => p.re.test(args.path));
        if (!hit) return undefined;
        return { contents: stubSource(hit.entry), resolveDir: path.dirname(args.path), loader: 'js' };
      });
    },
  };
}

module.exports = { UNUSED_SDK_MODULES, unusedSdkModulesPlugin, stubSource };
