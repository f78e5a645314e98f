import { z } from 'zod';
import type { ContextChip } from '../context/items';
import type { ToolOutput } from '../engine/types';
import { expected, pathText } from '../lenient';

/**
 * A scripted conversation (format: shared/scenarios/README.md). Strict, unlike the chat note and
 * the settings: a scenario is a test input, so a bad one fails with every wrong field named.
 */

const text = (error: string) => z.string({ error });
/** An optional list: absent is empty. */
const list = <T extends z.ZodType>(element: T) =>
  z
    .array(element, { error: 'must be an array' })
    .optional()
    .transform((items) => items ?? []);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first key that holds what it should wins, as in the format's examples. */
const Chip = z.union(
  [
    z.object({ note: z.string() }).transform(({ note }): ContextChip => ({ kind: 'note', path: note })),
    z.object({ folder: z.string() }).transform(({ folder }): ContextChip => ({ kind: 'folder', path: folder })),
    z.object({ tag: z.string() }).transform(({ tag }): ContextChip => ({ kind: 'tag', tag })),
    z
      .object({ url: z.string(), content: z.string().optional().catch(undefined) })
      .transform(({ url, content }): ContextChip => ({ kind: 'url', url, ...(content !== undefined ? { content } : {}) })),
    z
      .object({ selection: z.object({ note: z.string(), fromLine: z.number(), toLine: z.number() }) })
      .transform(({ selection: s }): ContextChip => ({ kind: 'selection', path: s.note, fromLine: s.fromLine, toLine: s.toLine })),
    /** Project extension (issue 31): a PDF of the scenario's vault, read as text page by page. */
    z.object({ pdf: z.string() }).transform(({ pdf }): ContextChip => ({ kind: 'pdf', path: pdf })),
    z.object({ canvas: z.string() }).transform(({ canvas }): ContextChip => ({ kind: 'canvas', path: canvas })),
  ],
  {
    error: (issue) =>
      isObject(issue.input) && isObject(issue.input.selection)
        ? 'selection needs note (string), fromLine and toLine (numbers)'
        : 'expected one of note, folder, tag, url, selection, pdf, canvas',
  },
);

/** A change applied to a note before the turn: `append` adds text at the end, `replace` replaces the whole note. */
const Edit = z.union([z.object({ note: z.string(), append: z.string() }), z.object({ note: z.string(), replace: z.string() })], {
  error: (issue) => (isObject(issue.input) && typeof issue.input.note === 'string' ? 'needs append or replace (string)' : 'needs note (string)'),
});

const Tool = z.object(
  { name: text('needs name and output (strings)'), input: z.string().catch(''), output: text('needs name and output (strings)') },
  { error: 'needs name and output (strings)' },
) satisfies z.ZodType<ToolOutput>;

const Turn = z.object(
  {
    user: text('required string'),
    context: list(Chip),
    edits: list(Edit),
    tools: list(Tool),
    reply: text('must be a string').optional(),
    /** Project extension: ids removed from the Context Library before this turn. */
    remove: list(text('must be a string')),
    /** Project extension: the user condenses the chat (the button) before this turn. */
    condense: z.boolean({ error: 'must be true or false' }).optional(),
    /**
     * Project extension (issue 13, Vault QA): run the vault search with this query during replay (the
     * replay's `search` option: the real index over the scenario's vault, as it is on disk; `edits`
     * do not reach it). Its localSearch block (numbered sources, chunks, citation rules) becomes
     * this turn's tool output, after any `tools`, exactly as a Vault QA turn sends it.
     */
    search: text('must be a string').min(1, { error: 'must be a non-empty string' }).optional(),
    /**
     * Project extension (issue 15, artifact planning): sections whose text should reach this turn's
     * request (`{ "note": "Queries/Filters.md", "heading": "Happens" }`); the inspector reports each
     * as reached or not (some line of the section's own text is in the request).
     */
    expect: z
      .array(z.object({ note: text('must be a string'), heading: text('must be a string') }, { error: 'expected { note, heading }' }), { error: 'must be an array' })
      .optional(),
  },
  { error: 'expected an object' },
);

const ScenarioSchema = z.object(
  {
    name: text('required string').min(1, { error: 'required string' }),
    vault: text('must be a string').optional(),
    model: text('must be a string').default('gpt-4o'),
    /**
     * Project extension (issue 14, Projects): the chat belongs to a project. Its `prompt` joins L1 as
     * a static fragment after the default system prompt (as promptFragments({ projectPrompt }) gives
     * it; ignored when the replay is given its own fragments), and a turn's `"search"` keeps only the
     * hits inside `folder` (vault-relative; absent: the whole vault).
     * `"project": { "name": "Greenhouse", "folder": "Projects/Greenhouse", "prompt": "Answer as the greenhouse's log keeper." }`
     */
    project: z
      .object(
        { name: text('must be a string'), folder: text('must be a string').optional(), prompt: text('must be a string').default('') },
        { error: 'expected an object with name, prompt and optional folder' },
      )
      .optional(),
    turns: z.array(Turn, { error: 'required non-empty array' }).min(1, { error: 'required non-empty array' }),
  },
  { error: 'expected a JSON object' },
);

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioTurn = Scenario['turns'][number];
export type ScenarioEdit = z.infer<typeof Edit>;

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Validate parsed JSON into a Scenario; a ScenarioError names every wrong turn and field. */
export function parseScenario(data: unknown, origin = 'scenario'): Scenario {
  const result = ScenarioSchema.safeParse(data, { error: expected });
  if (result.success) return result.data;
  throw new ScenarioError(`${origin}: ${result.error.issues.map((issue) => `${pathText(issue.path) || 'top level'}: ${issue.message}`).join('; ')}`);
}

/** The reply used when a scenario gives none: depends only on the turn number. */
export function placeholderReply(turn: number): string {
  return `(placeholder reply for turn ${turn})`;
}
