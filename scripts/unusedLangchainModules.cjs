/**
 * LangChain modules Strata's bundle carries in name only (unusedModules.cjs). Strata calls a chat
 * model's `stream` and `invoke` (withStructuredOutput's chain for the planner), passes no callbacks,
 * and never traces (langsmith is a shim: shims/langsmith.cjs). Every runnable still imports what
 * its other methods need, so esbuild keeps it:
 * - `streamLog`, `streamEvents` (and the v3 chat model event stream they and a handler preferring
 *   it build on: each package's stream_events converter), `withListeners`, `getGraph`: their
 *   classes throw if ever made; the checks on every call (`isStreamEventsHandler`,
 *   `isLogStreamHandler`) stay;
 * - the tracers a user's environment can turn on (LANGCHAIN_VERBOSE, LANGSMITH_TRACING): an inert
 *   handler each, as the tracing client already sends nothing (the shim), so a call works as
 *   without them;
 * - a model's response cache (never set), the JSON patches of streamLog and of an output parser's
 *   `diff` mode, and core's converter of zod 3 schemas (Strata gives JSON Schema, or zod 4 which
 *   zod converts itself): they throw;
 * - content block translators for chat models Strata does not make (Bedrock, Groq, xAI, DeepSeek,
 *   Ollama, OpenRouter, Vertex): the registry keeps OpenAI, Anthropic and Google GenAI, and is
 *   Strata's own: it does not claim the global registry LangChain shares between bundles (another
 *   plugin's copy of LangChain then registers its full one).
 */
const { replaced, throws } = require('./unusedModules.cjs');

const CORE = '@langchain/core';

/** @type {import('./unusedModules.cjs').UnusedModule[]} */
const UNUSED_LANGCHAIN_MODULES = [
  throws(CORE, 'dist/tracers/event_stream.js', ['EventStreamCallbackHandler', 'isStreamEventsHandler'], {}, {
    isStreamEventsHandler: 'export const isStreamEventsHandler = (handler) => handler.name === "event_stream_tracer";',
  }),
  throws(CORE, 'dist/tracers/log_stream.js', ['LogStreamCallbackHandler', 'RunLog', 'RunLogPatch', 'isLogStreamHandler', 'log_stream_exports'], { log_stream_exports: {} }, {
    isLogStreamHandler: 'export const isLogStreamHandler = (handler) => handler.name === "log_stream_tracer";',
  }),
  throws(CORE, 'dist/tracers/root_listener.js', ['RootListenersTracer']),
  throws(CORE, 'dist/runnables/graph.js', ['Graph', 'graph_exports'], { graph_exports: {} }),
  throws(CORE, 'dist/language_models/stream.js', ['ChatModelStream', 'ReasoningContentStream', 'TextContentStream', 'ToolCallsStream', 'UsageMetadataStream', 'stream_exports'], {
    stream_exports: {},
  }),
  throws(CORE, 'dist/language_models/compat.js', ['convertChunksToEvents', 'finalizeContentBlock', 'compat_exports'], { compat_exports: {} }),
  throws(CORE, 'dist/language_models/openai_completions_stream.js', ['convertOpenAICompletionsStream', 'openai_completions_stream_exports'], {
    openai_completions_stream_exports: {},
  }),
  throws('@langchain/openai', 'dist/utils/responses_stream_events.js', ['convertOpenAIResponsesStream']),
  throws('@langchain/anthropic', 'dist/utils/stream_events.js', ['convertAnthropicStream']),
  throws('@langchain/google-genai', 'dist/utils/stream_events.js', ['convertGoogleGenAIStream']),
  // A model's response cache (a `cache` option Strata never sets) and its SHA-256.
  throws(CORE, 'dist/caches/index.js', ['BaseCache', 'InMemoryCache', 'defaultHashKeyEncoder', 'deserializeStoredGeneration', 'serializeGeneration', 'caches_exports'], {
    caches_exports: {},
  }),
  // JSON patches: streamLog's, and an output parser's `diff` mode (Strata's parsers stream no diffs).
  throws(CORE, 'dist/utils/json_patch.js', ['applyPatch', 'compare', 'json_patch_exports'], { json_patch_exports: {} }),
  throws(CORE, 'dist/utils/fast-json-patch/index.js', ['_areEquals', 'applyOperation', 'applyPatch', 'applyReducer', 'compare', 'getValueByPointer', 'validate', 'validator']),
  throws(CORE, 'dist/utils/fast-json-patch/src/duplex.js', ['compare']),
  // zod 3 schemas to JSON Schema (toJsonSchema's branch for them): Strata's schemas are JSON Schema or zod 4.
  throws(CORE, 'dist/utils/zod-to-json-schema/zodToJsonSchema.js', ['zodToJsonSchema']),
  throws(CORE, 'dist/utils/zod-to-json-schema/index.js', [
    'addErrorMessage', 'defaultOptions', 'getDefaultOptions', 'getRefs', 'getRelativePath', 'ignoreOverride',
    'parseAnyDef', 'parseArrayDef', 'parseBigintDef', 'parseBooleanDef', 'parseBrandedDef', 'parseCatchDef',
    'parseDateDef', 'parseDef', 'parseDefaultDef', 'parseEffectsDef', 'parseEnumDef', 'parseIntersectionDef',
    'parseLiteralDef', 'parseMapDef', 'parseNativeEnumDef', 'parseNeverDef', 'parseNullDef',
    'parseNullableDef', 'parseNumberDef', 'parseObjectDef', 'parseOptionalDef', 'parsePipelineDef',
    'parsePromiseDef', 'parseReadonlyDef', 'parseRecordDef', 'parseSetDef', 'parseStringDef', 'parseTupleDef',
    'parseUndefinedDef', 'parseUnionDef', 'parseUnknownDef', 'primitiveMappings', 'selectParser',
    'setResponseValueAndErrors', 'zodPatterns', 'zodToJsonSchema',
  ]),
  replaced(CORE, 'dist/tracers/console.js', ['ConsoleCallbackHandler', 'console_exports'], `
import { BaseCallbackHandler } from "../callbacks/base.js";
export class ConsoleCallbackHandler extends BaseCallbackHandler { name = "console_callback_handler"; }
export const console_exports = {};
`),
  replaced(CORE, 'dist/tracers/tracer_langchain.js', ['LangChainTracer', 'OVERRIDABLE_LANGSMITH_INHERITABLE_METADATA_KEYS', 'omitPayload', 'tracer_langchain_exports'], `
import { BaseCallbackHandler } from "../callbacks/base.js";
import { RunTree } from "langsmith/run_trees";
import { getCurrentRunTree } from "langsmith/singletons/traceable";
export { omitPayload } from "./trace_policy.js";
export class LangChainTracer extends BaseCallbackHandler {
  name = "langchain_tracer";
  static getTraceableRunTree() {
    try { return getCurrentRunTree(true); } catch { return undefined; }
  }
  updateFromRunTree() {}
  copyWithTracingConfig() { return this; }
  /** What a call without a tracer runs under (async_local_storage's runWithConfig). */
  getRunTreeWithTracingConfig() { return new RunTree({ name: "<runnable_lambda>", tracingEnabled: false }); }
}
export const OVERRIDABLE_LANGSMITH_INHERITABLE_METADATA_KEYS = new Set(["ls_agent_type"]);
export const tracer_langchain_exports = {};
`),
  replaced(CORE, 'dist/messages/block_translators/index.js', ['getTranslator'], `
import { ChatAnthropicTranslator } from "./anthropic.js";
import { ChatGoogleGenAITranslator } from "./google_genai.js";
import { ChatOpenAITranslator } from "./openai.js";
const translators = new Map([["anthropic", ChatAnthropicTranslator], ["google-genai", ChatGoogleGenAITranslator], ["openai", ChatOpenAITranslator]]);
export function getTranslator(modelProvider) {
  return globalThis.lc_block_translators_registry?.get(modelProvider) ?? translators.get(modelProvider);
}
`),
];

module.exports = { UNUSED_LANGCHAIN_MODULES };
