/**
 * The OpenAI and Anthropic SDK modules Strata's bundle carries in name only (unusedModules.cjs).
 * Each client wires every resource of its API in its constructor (files, batches, fine-tuning,
 * vector stores, agents, sessions...), so esbuild keeps them all although LangChain's chat models
 * call only chat completions, responses and messages: those resources become `inert`. Helpers for
 * calls LangChain never makes `throw`: the SDKs' `.stream()` and `.runTools()` runners, file uploads,
 * OpenAI's zod helpers (for zod 3 schemas; Strata gives JSON Schema), the credentials a client finds
 * without an API key (Anthropic's credential chain, OpenAI's workload identity): Strata always gives one.
 */
const { inert, throws } = require('./unusedModules.cjs');

const OPENAI = 'openai';
const ANTHROPIC = '@anthropic-ai/sdk';

/** @type {import('./unusedModules.cjs').UnusedModule[]} */
const UNUSED_SDK_MODULES = [
  // OpenAI: LangChain's chat models call chat.completions (create, parse), responses (create, parse)
  // and moderations; completions, embeddings and models stay too (small). Images: only DALL-E's tool.
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
  inert(OPENAI, 'resources/images.mjs', 'Images'),
  inert(OPENAI, 'resources/realtime/realtime.mjs', 'Realtime'),
  inert(OPENAI, 'resources/skills/skills.mjs', 'Skills'),
  inert(OPENAI, 'resources/uploads/uploads.mjs', 'Uploads'),
  inert(OPENAI, 'resources/vector-stores/vector-stores.mjs', 'VectorStores'),
  inert(OPENAI, 'resources/videos.mjs', 'Videos'),
  inert(OPENAI, 'resources/webhooks/webhooks.mjs', 'Webhooks'),
  // File uploads (files, audio, image edits) and workload identity federation (a client without an API key).
  throws(OPENAI, 'core/uploads.mjs', ['toFile', 'toStreamingFile']),
  throws(OPENAI, 'auth/workload-identity-auth.mjs', ['WorkloadIdentityAuth']),
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
  throws(ANTHROPIC, 'core/uploads.mjs', ['toFile']),
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

module.exports = { UNUSED_SDK_MODULES };
