import { FakeListChatModel } from '@langchain/core/utils/testing';
import { RunnableLambda } from '@langchain/core/runnables';
import { getContextVariable, setContextVariable } from '@langchain/core/context';
import { RunCollectorCallbackHandler } from '@langchain/core/tracers/run_collector';

/*
 * Issue 30: langsmith is replaced by scripts/shims/langsmith.cjs in the bundle and here (jest's
 * moduleNameMapper). @langchain/core still reaches its run trees on every call; with tracing off, and
 * with a user's environment turning LangChain tracing on, calls work and nothing leaves the process.
 */

describe('@langchain/core over the langsmith shim', () => {
  const saved = { tracing: process.env.LANGSMITH_TRACING, fetch: globalThis.fetch };
  const fetched: string[] = [];

  beforeAll(() => {
    globalThis.fetch = (input) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return Promise.reject(new Error('no network in this test'));
    };
  });

  afterAll(() => {
    globalThis.fetch = saved.fetch;
    if (saved.tracing === undefined) delete process.env.LANGSMITH_TRACING;
    else process.env.LANGSMITH_TRACING = saved.tracing;
  });

  it('is the shim that answers', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import/no-extraneous-dependencies -- the module jest maps langsmith to (@langchain/core's dependency)
    const langsmith = require('langsmith') as unknown;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim itself
    expect(langsmith).toBe(require('../../scripts/shims/langsmith.cjs'));
  });

  it.each(['false', 'true'])('invoke, stream, stream events and context variables work with LANGSMITH_TRACING=%s, and nothing is sent', async (tracing) => {
    process.env.LANGSMITH_TRACING = tracing;
    const model = new FakeListChatModel({ responses: ['hello there'] });
    expect((await model.invoke('hi')).content).toBe('hello there');
    let streamed = '';
    for await (const chunk of await model.stream('hi')) streamed += chunk.text;
    expect(streamed).toBe('hello there');
    // A BaseTracer (as stream events run) orders its runs by langsmith's dotted order.
    const collector = new RunCollectorCallbackHandler();
    await model.invoke('hi', { callbacks: [collector] });
    expect(collector.tracedRuns).toHaveLength(1);
    expect(collector.tracedRuns[0].dotted_order).toMatch(/^\d{8}T\d{9,}Z/);
    const chain = RunnableLambda.from(async (x: number) => {
      setContextVariable('k', 'v');
      return RunnableLambda.from((): string | undefined => getContextVariable<string>('k')).invoke(x);
    });
    expect(await chain.invoke(1)).toBe('v');
    expect(fetched).toEqual([]);
  });
});
