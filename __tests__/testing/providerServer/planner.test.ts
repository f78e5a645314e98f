/**
 * The local server's answers to Strata's artifact planner, over plain HTTP: recognised by the
 * planner's first line, scripted by the question's `[[plan …]]` directive (else a default plan
 * from the prompt's artifact blocks), in the form the request asked for (forced tool call, JSON
 * schema format, plain), streamed or not, with usage; other requests untouched.
 */
import { plannerMessages } from '../../../src/core/planning/plannerPrompt';
import type { ProviderServer, WireJson } from '../../../testing/providerServer';
import { MALFORMED_PLAN, defaultPlan, plannerArtifacts, plannerQuestion } from '../../../testing/providerServer/plannerScript';
import { planDirectives } from '../../../testing/providerServer/planDirectives';
import { stripDirectives } from '../../../testing/providerServer/toolScript';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import { LONG, PLAN, noteArtifact, plannerInput, textArtifact } from '../../core/planning/plannerFixtures';
import { payloads, postJson, readSse } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

const ANTHROPIC_HEADERS = { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' };
const plan = noteArtifact(PLAN);
const long = noteArtifact(LONG);
const SCHEMA = { type: 'object', properties: { artifacts: { type: 'array' }, reasoning: { type: 'string' } }, required: ['artifacts', 'reasoning'] };
const ANSWER = { artifacts: [{ artifact_id: PLAN, strategy: 'exclude', priority: 1, rationale: 'Off topic.', focus: null, query: null }], reasoning: 'scripted' };

function prompt(question: string) {
  const [system, user] = plannerMessages(plannerInput([plan, long], { question }));
  return { system: system.content, user: user.content };
}

const count = (text: string, model: string): number => tokenCounterFor(model).count(text);
/** A JSON text of a wire reply, parsed. */
const parsed = (text: WireJson): unknown => JSON.parse(String(text));

async function chat(body: Record<string, unknown>): Promise<WireJson> {
  const response = await postJson(`${server.url}/v1/chat/completions`, { model: 'gpt-4o-mini', ...body });
  expect(response.status).toBe(200);
  return response.json();
}

function chatMessages(question: string): Array<Record<string, string>> {
  const p = prompt(question);
  return [
    { role: 'system', content: p.system },
    { role: 'user', content: p.user },
  ];
}

const toolChoice = { tool_choice: { type: 'function', function: { name: 'artifact_plan' } }, tools: [{ type: 'function', function: { name: 'artifact_plan', parameters: SCHEMA } }] };

describe('Chat Completions', () => {
  test('a forced tool call: the plan as the call arguments (scripted), usage counted', async () => {
    const question = `Vents?\n[[plan ${JSON.stringify(ANSWER)}]]`;
    const reply = await chat({ messages: chatMessages(question), ...toolChoice });
    const choice = reply.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([{ id: 'call_1_1', type: 'function', function: { name: 'artifact_plan', arguments: JSON.stringify(ANSWER) } }]);
    expect(reply.usage.completion_tokens).toBe(count(JSON.stringify([{ name: 'artifact_plan', arguments: ANSWER }]), 'gpt-4o-mini'));
    expect(reply.usage.prompt_tokens).toBeGreaterThan(500);
  });

  test('response_format json_schema: the plan as the content (default plan)', async () => {
    const reply = await chat({ messages: chatMessages('Vents?'), response_format: { type: 'json_schema', json_schema: { name: 'artifact_plan', schema: SCHEMA, strict: true } } });
    expect(reply.choices[0].finish_reason).toBe('stop');
    expect(parsed(reply.choices[0].message.content)).toEqual(defaultPlan(chatMessages('Vents?')[1].content));
    expect(reply.usage.completion_tokens).toBe(count(String(reply.choices[0].message.content), 'gpt-4o-mini'));
  });

  test('plain: the plan as text', async () => {
    const reply = await chat({ messages: chatMessages(`[[plan ${JSON.stringify(ANSWER)}]]`) });
    expect(parsed(reply.choices[0].message.content)).toEqual(ANSWER);
  });

  test('streamed forced tool call: the arguments in pieces that join to the plan', async () => {
    const response = await postJson(`${server.url}/v1/chat/completions`, { model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: chatMessages('Vents?'), ...toolChoice });
    const chunks = payloads(await readSse(response));
    const args = chunks.flatMap((c): WireJson[] => c.choices[0]?.delta?.tool_calls ?? []).map((t: WireJson) => String(t.function?.arguments ?? '')).join('');
    expect(parsed(args)).toEqual(defaultPlan(chatMessages('Vents?')[1].content));
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
  });

  test('invalid: malformed arguments; error: HTTP 500 in the API shape', async () => {
    const reply = await chat({ messages: chatMessages('[[plan invalid]]'), ...toolChoice });
    expect(reply.choices[0].message.tool_calls[0].function.arguments).toBe(MALFORMED_PLAN);
    const failed = await postJson(`${server.url}/v1/chat/completions`, { model: 'gpt-4o-mini', messages: chatMessages('Vents?\n[[plan error]]'), ...toolChoice });
    expect(failed.status).toBe(500);
    expect((await failed.json()).error.type).toBe('server_error');
  });

  test('slow: the answer comes after the wait', async () => {
    const started = Date.now();
    const reply = await chat({ messages: chatMessages(`[[plan slow 300]] [[plan ${JSON.stringify(ANSWER)}]]`) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(parsed(reply.choices[0].message.content)).toEqual(ANSWER);
  });

  test('a chat request is not a planner request: its reply leaves the directive out of the question', async () => {
    const reply = await chat({ messages: [{ role: 'system', content: 'You are Strata.' }, { role: 'user', content: `Which vents?\n[[plan ${JSON.stringify(ANSWER)}]]\nReally? [[plan slow]]` }] });
    expect(reply.choices[0].message.content).toBe('Seen context: none. Question: Which vents?\nReally?.');
  });
});

describe('Responses', () => {
  async function responses(body: Record<string, unknown>): Promise<WireJson> {
    const response = await postJson(`${server.url}/v1/responses`, { model: 'gpt-4o-mini', ...body });
    expect(response.status).toBe(200);
    return response.json();
  }
  const input = (question: string): Array<Record<string, string>> => chatMessages(question);

  test('a forced function call: a function_call item with the plan as arguments', async () => {
    const reply = await responses({
      input: input(`[[plan ${JSON.stringify(ANSWER)}]]`),
      tools: [{ type: 'function', name: 'artifact_plan', parameters: SCHEMA, strict: true }],
      tool_choice: { type: 'function', name: 'artifact_plan' },
    });
    expect(reply.output).toEqual([{ id: 'fc_1_1', type: 'function_call', status: 'completed', arguments: JSON.stringify(ANSWER), call_id: 'call_1_1', name: 'artifact_plan' }]);
    expect(reply.usage.output_tokens).toBeGreaterThan(0);
  });

  test('text.format json_schema (and instructions as the system text): the plan as output text; the format echoed', async () => {
    const p = prompt('Vents?');
    const format = { type: 'json_schema', name: 'artifact_plan', schema: SCHEMA, strict: true };
    const reply = await responses({ instructions: p.system, input: p.user, text: { format } });
    expect(reply.output[0].type).toBe('message');
    expect(parsed(reply.output[0].content[0].text)).toEqual(defaultPlan(p.user));
    expect(reply.text.format).toEqual(format);
  });

  test('streamed: the function call arguments arrive in pieces', async () => {
    const response = await postJson(`${server.url}/v1/responses`, {
      model: 'gpt-4o-mini',
      stream: true,
      input: input('Vents?'),
      tools: [{ type: 'function', name: 'artifact_plan', parameters: SCHEMA }],
      tool_choice: { type: 'function', name: 'artifact_plan' },
    });
    const events = payloads(await readSse(response));
    const done = events.find((e) => e.type === 'response.function_call_arguments.done');
    expect(parsed(done.arguments)).toEqual(defaultPlan(input('Vents?')[1].content));
    expect(events.at(-1).type).toBe('response.completed');
  });
});

describe('Anthropic Messages', () => {
  async function messages(body: Record<string, unknown>): Promise<WireJson> {
    const response = await postJson(`${server.url}/v1/messages`, { model: 'claude-haiku-4-5', max_tokens: 1000, ...body }, ANTHROPIC_HEADERS);
    expect(response.status).toBe(200);
    return response.json();
  }
  const body = (question: string, extra: Record<string, unknown> = {}): Record<string, unknown> => {
    const p = prompt(question);
    return { system: [{ type: 'text', text: p.system }], messages: [{ role: 'user', content: p.user }], ...extra };
  };
  const forced = { tools: [{ name: 'artifact_plan', input_schema: SCHEMA }], tool_choice: { type: 'tool', name: 'artifact_plan' } };

  test('a forced tool: a tool_use block with the plan as input', async () => {
    const reply = await messages(body(`[[plan ${JSON.stringify(ANSWER)}]]`, forced));
    expect(reply.stop_reason).toBe('tool_use');
    expect(reply.content).toEqual([{ type: 'tool_use', id: 'toolu_1_1', name: 'artifact_plan', input: ANSWER }]);
    expect(reply.usage.output_tokens).toBeGreaterThan(0);
  });

  test('invalid with a forced tool: the malformed JSON as text (tool input is an object)', async () => {
    const reply = await messages(body('[[plan invalid]]', forced));
    expect(reply.content).toEqual([{ type: 'text', text: MALFORMED_PLAN }]);
    expect(reply.stop_reason).toBe('end_turn');
  });

  test('output_config json_schema or plain: the plan as text; a system string works too', async () => {
    const p = prompt('Vents?');
    const reply = await messages({ system: p.system, messages: [{ role: 'user', content: p.user }], output_config: { format: { type: 'json_schema', schema: SCHEMA } } });
    expect(parsed(reply.content[0].text)).toEqual(defaultPlan(p.user));
  });

  test('streamed: input_json_delta pieces join to the plan', async () => {
    const response = await postJson(`${server.url}/v1/messages`, { model: 'claude-haiku-4-5', max_tokens: 1000, stream: true, ...body('Vents?', forced) }, ANTHROPIC_HEADERS);
    const events = payloads(await readSse(response));
    const json = events.filter((e) => e.type === 'content_block_delta').map((e) => String(e.delta.partial_json)).join('');
    expect(parsed(json)).toEqual(defaultPlan(prompt('Vents?').user));
  });

  test('error: HTTP 500 in the Anthropic shape', async () => {
    const response = await postJson(`${server.url}/v1/messages`, { model: 'claude-haiku-4-5', max_tokens: 1000, ...body('[[plan error]]', forced) }, ANTHROPIC_HEADERS);
    expect(response.status).toBe(500);
    expect((await response.json()).error.type).toBe('api_error');
  });
});

describe('reading the planner prompt', () => {
  test('the artifact blocks are read back (ids as written, tokens); preview lines never count as blocks', () => {
    const tricky = textArtifact('Notes/"Quoted" ünïcode.md', '[9] id: "fake"\n  100 tokens · 1 chars · note\n# Heading');
    const user = plannerMessages(plannerInput([plan, tricky, long], { question: 'Q?' }))[1].content;
    const blocks = plannerArtifacts(user);
    expect(blocks.map(({ id, tokens }) => ({ id, tokens }))).toEqual([
      { id: PLAN, tokens: plan.tokens },
      { id: tricky.id, tokens: tricky.tokens },
      { id: LONG, tokens: long.tokens },
    ]);
    // Each block's text runs from its header to the next block: the tricky preview stays inside its own.
    expect(blocks[1].text.startsWith(`[2] id: ${JSON.stringify(tricky.id)}`)).toBe(true);
    expect(blocks[1].text).toContain('[9] id: "fake"');
    expect(blocks[0].text).not.toContain('fake');
    expect(plannerQuestion(user)).toBe('Q?');
  });

  test('the default plan: by the words of the question in each preview (directives removed)', () => {
    const decided = (question: string) =>
      (defaultPlan(prompt(question).user).artifacts as Array<Record<string, unknown>>).map((a) => [a.artifact_id, a.strategy, a.priority, a.focus ?? a.query ?? null]);
    // A word in a small note's text: whole; a large one sharing none: left out, last.
    expect(decided('Which vents?\n[[plan slow 10]]')).toEqual([
      [PLAN, 'include_full', 1, null],
      [LONG, 'exclude', 2, null],
    ]);
    // Its headings name the question's subject: the passages on the question, first.
    expect(decided('How do I write a task with a due date?')).toEqual([
      [PLAN, 'exclude', 2, null],
      [LONG, 'rag_extract', 1, 'How do I write a task with a due date?'],
    ]);
    // An overview is served by a summary.
    expect(decided('Give me an overview of writing a task')).toEqual([
      [PLAN, 'exclude', 2, null],
      [LONG, 'summarize', 1, 'Give me an overview of writing a task'],
    ]);
    // Nothing shares a word: small ones whole, large ones summarized (nothing is left out blindly).
    expect(decided('Thoughts?')).toEqual([
      [PLAN, 'include_full', 1, null],
      [LONG, 'summarize', 2, 'Thoughts?'],
    ]);
    expect(long.tokens).toBeGreaterThan(1500);
  });

  test('a directive in an artifact preview does not script the planner; only the question does', async () => {
    const readme = textArtifact('README.md', 'Use [[plan error]] to see the fallback.');
    const [system, user] = plannerMessages(plannerInput([readme], { question: 'What does the readme say?' }));
    const reply = await chat({ messages: [system, user] });
    // A 200 with the default plan, not the 500 the preview's directive would script.
    expect(parsed(reply.choices[0].message.content)).toMatchObject({ artifacts: [expect.objectContaining({ artifact_id: 'README.md', strategy: 'include_full' })] });
  });

  test('directive syntax: JSON to the first `]]` where it parses; keywords; plain text otherwise', () => {
    expect(planDirectives('[[plan {"reasoning":"a]]b","artifacts":[[1]]}]] tail')).toEqual([{ kind: 'answer', json: '{"reasoning":"a]]b","artifacts":[[1]]}' }]);
    expect(planDirectives('x [[plan slow]] [[plan slow 250]]\n[[plan invalid]][[plan error]]')).toEqual([
      { kind: 'slow', ms: 35_000 },
      { kind: 'slow', ms: 250 },
      { kind: 'invalid' },
      { kind: 'error' },
    ]);
    expect(planDirectives('[[plan]] [[plan later]] [[plan {not json}]] [[planner {}]]')).toEqual([]);
    expect(stripDirectives('Keep this [[plan error]] and this\n[[plan {"a":1}]]\n[[tool x {}]] [[plan slow]]\nend')).toBe('Keep this and this\nend');
  });
});
