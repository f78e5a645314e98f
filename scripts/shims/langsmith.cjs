/**
 * Stands in for the `langsmith` package (LangSmith's tracing client, 238 KiB minified) in the plugin
 * bundle (scripts/bundlePlugins.cjs) and in jest (jest.config.cjs), so the tests run what ships.
 *
 * @langchain/core imports langsmith for tracing only, and Strata never traces: its requests go to the
 * user's provider and nowhere else. With tracing off, core still reaches four names on every call:
 * - `RunTree`: runWithConfig wraps each runnable call in `new RunTree({ tracingEnabled: false })`
 *   (the real one also builds a full LangSmith Client per process for it); core reads `extra`,
 *   `tracingEnabled`, `id` and the context variables it stores on the tree.
 * - `isRunTree`, `getCurrentRunTree`: context variables and the tracer's parent lookup.
 * - `isTraceableFunction`: RunnableLambda's check for langsmith's traceable() wrappers (never made here).
 * - `convertToDottedOrderFormat`: every BaseTracer (streamEvents' handler) orders its runs with it.
 * `Client` is inert: if a user's environment turns LangChain tracing on (LANGSMITH_TRACING=true),
 * the tracer gets this client and these trees, whose posts send nothing.
 * Plain CommonJS: esbuild bundles it for the ESM importers, and jest requires it as it is.
 */
'use strict';

/** langsmith's own key for the async-local storage it shares with @langchain/core. */
const TRACING_ALS_KEY = Symbol.for('ls:tracing_async_local_storage');

const mockStorage = { getStore: () => undefined, run: (_store, callback) => callback() };

function storage() {
  return globalThis[TRACING_ALS_KEY] ?? mockStorage;
}

/** `YYYYMMDDTHHMMSSmmmuuuZ` + the run's id, as langsmith orders runs (the three digits break ties). */
function convertToDottedOrderFormat(epoch, runId, executionOrder = 1) {
  const paddedOrder = executionOrder.toFixed(0).slice(0, 3).padStart(3, '0');
  const microsecondPrecisionDatestring = `${new Date(epoch).toISOString().slice(0, -1)}${paddedOrder}Z`;
  return { dottedOrder: microsecondPrecisionDatestring.replace(/[-:.]/g, '') + runId, microsecondPrecisionDatestring };
}

let runs = 0;
/** A run id (core keys its runs by it; nothing is sent): a UUID where the host has one, else a counter. */
function runId() {
  return globalThis.crypto?.randomUUID?.() ?? `run-${++runs}`;
}

function isRunTree(x) {
  return x != null && typeof x.createChild === 'function' && typeof x.postRun === 'function';
}

class RunTree {
  constructor(config = {}) {
    // A run tree passed in comes back as a shallow clone (context variables included), as in langsmith.
    if (isRunTree(config)) {
      Object.assign(this, { ...config });
      return;
    }
    const { metadata, ...rest } = config;
    Object.assign(this, {
      run_type: 'chain',
      child_runs: [],
      start_time: Date.now(),
      serialized: {},
      inputs: {},
      ...rest,
      extra: { ...rest.extra, metadata: { ...metadata, ...rest.extra?.metadata } },
    });
    if (this.id == null) this.id = runId();
    this.execution_order ??= 1;
    this.child_execution_order ??= 1;
    this.trace_id ??= this.parent_run?.trace_id ?? this.id;
    if (!this.dotted_order) {
      const { dottedOrder } = convertToDottedOrderFormat(this.start_time, this.id, this.execution_order);
      this.dotted_order = this.parent_run ? `${this.parent_run.dotted_order}.${dottedOrder}` : dottedOrder;
    }
  }

  get metadata() {
    return this.extra?.metadata;
  }

  set metadata(metadata) {
    this.extra = { ...this.extra, metadata: { ...this.extra?.metadata, ...metadata } };
  }

  createChild(config = {}) {
    const child = new RunTree({ ...config, parent_run: this, tracingEnabled: this.tracingEnabled, client: this.client });
    this.child_runs.push(child);
    return child;
  }

  async end(outputs, error, endTime = Date.now()) {
    this.outputs = outputs ?? this.outputs;
    this.error = error ?? this.error;
    this.end_time = endTime;
  }

  async postRun() {}

  async patchRun() {}

  toJSON() {
    const { parent_run, child_runs, client, ...run } = this;
    return { ...run, parent_run_id: parent_run?.id, child_runs: child_runs?.map((c) => c.toJSON()) };
  }
}

/** LangSmith's API client, inert: Strata sends no traces. */
class Client {
  constructor(config = {}) {
    this.config = config;
  }
  async createRun() {}
  async updateRun() {}
  async awaitPendingTraceBatches() {}
  async flush() {}
}

function getCurrentRunTree(permitAbsentRunTree = false) {
  const runTree = storage().getStore();
  if (!permitAbsentRunTree && runTree === undefined) throw new Error('Could not get the current run tree (Strata does not trace).');
  return runTree;
}

function isTraceableFunction(x) {
  return typeof x === 'function' && 'langsmith:traceable' in x;
}

const AsyncLocalStorageProviderSingleton = {
  getInstance: storage,
  initializeGlobalInstance(instance) {
    if (globalThis[TRACING_ALS_KEY] === undefined) globalThis[TRACING_ALS_KEY] = instance;
  },
};

module.exports = {
  Client,
  RunTree,
  isRunTree,
  convertToDottedOrderFormat,
  getCurrentRunTree,
  isTraceableFunction,
  AsyncLocalStorageProviderSingleton,
};
