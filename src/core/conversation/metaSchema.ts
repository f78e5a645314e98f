import { CONDENSED_FORMS, type CondensedEntry, type LibraryCondensing } from '../engine/types';
import { z } from 'zod';
import { PlanBookSchema, PlannedFormRecord, PlanRecordSchema } from './planSchema';
import { ITEM_KINDS, type ContextChip } from '../context/items';
import { PROBLEM_REASONS, type ResolutionProblem } from '../context/resolver';
import { COMPACTION_TRIGGERS } from './records/compaction';
import { COMPILE_MODES } from '../compiler/messageCompiler';
import { ProviderSessionSchema } from '../compiler/session';
import { lazySchema } from '../lazySchema';
import { COMPACTION_KINDS } from '../engine/compaction';
import { TOOL_FORM_KINDS, type ToolForm } from '../engine/toolForms';
import { RENDERINGS } from '../settings/engineChoices';
import type { CommittedRequest, PendingEvent } from '../engine/prefix';
import { FRESHNESS_STATUSES, LAYER_IDS, PREFIX_CHANGE_REASONS, type ImageRef, type LayerId } from '../engine/types';
import { Count, leftOut, orElse, required } from '../lenient';
import { keepReads, readStrict } from '../strictRead';
import { Content, jsonAtMost, listOf, Name, nonBlank, PathText, STORED_LIMITS, Text } from '../storedLimits';
import type { Usage } from '../usage';
import { REWRITE_STATUSES, type TurnSearch } from './records/search';
import { DEFAULT_MODE, TITLE_SOURCES, TURN_STATUSES, type EnvelopeRecord, type ItemRef, type LayerRecord } from './model';
import { epochFromIso } from './time';
import type { AgentTurn } from './records/agent';
import { KEPT_HUNK_CHARS, type EditEntry } from './records/edits';
import { EDIT_KINDS, type Hunk } from '../edits/proposal';
import { WritePolicySchema } from '../settings/writePolicySchema';

/**
 * The chat note's frontmatter as read: what each field must be and what a bad one falls back to.
 * The domain types live with the model; these schemas satisfy them.
 */

/**
 * 3: the chat data callout moved to the end of the note, out of the way of the messages (read the
 * same: the reader finds it anywhere). 2: the machine state moved from the frontmatter to the chat
 * data callout under it (chatData.ts), without layer hashes and with empty lists left out. 1: all
 * of it in the frontmatter. All read with these schemas: the reader merges the callout into
 * `strata` before reading.
 */
export const FORMAT_VERSION = 3;
export const FORMAT_VERSIONS = [1, 2, 3] as const;

/**
 * ISO 8601 text as written, or what YAML or a caller may hand over instead (epoch ms, a Date):
 * whole epoch ms, as the writer can write them back.
 */
const Time = lazySchema(() => z.unknown().transform((value, ctx): number => {
  // An ISO time is a few dozen characters: a longer text is not read (a huge one would be parsed at every read).
  const ms =
    typeof value === 'string' && value.length > 64
      ? null
      : typeof value === 'number' ? value : value instanceof Date ? value.getTime() : typeof value === 'string' ? epochFromIso(value) : null;
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    ctx.issues.push({ code: 'custom', input: value, message: 'expected a date and time (ISO 8601)' });
    return 0;
  }
  return Math.trunc(ms) || 0;
}));

const ChipRecord = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('note'), path: PathText, active: leftOut(z.literal(true)).optional() }),
  z.object({ kind: z.literal('folder'), path: PathText }),
  z.object({ kind: z.literal('tag'), tag: PathText }),
  z.object({ kind: z.literal('url'), url: PathText, title: leftOut(PathText).optional() }),
  z.object({ kind: z.literal('selection'), path: PathText, fromLine: Count, toLine: Count }),
  z.object({ kind: z.literal('pdf'), path: PathText }),
  z.object({ kind: z.literal('canvas'), path: PathText }),
]) satisfies z.ZodType<ContextChip>);

const ProblemRecord = lazySchema(() => z.object({ chipId: PathText, reason: z.enum(PROBLEM_REASONS), detail: Text }) satisfies z.ZodType<ResolutionProblem>);

/** An image a turn sent (src/core/engine/types.ts ImageRef): no bytes, they are read again from the vault. */
const ImageRefRecord = lazySchema(() => z.object({
  path: PathText,
  mediaType: Name,
  width: Count,
  height: Count,
  bytes: Count,
  hash: Name,
  tokens: Count,
}) satisfies z.ZodType<ImageRef>);

const UsageRecord = lazySchema(() => z.object({ inputTokens: Count, outputTokens: Count, cachedReadTokens: Count, cacheWriteTokens: Count, cacheStorageTokenHours: z.number().nonnegative().optional() }) satisfies z.ZodType<Usage>);

/** A layer's size (format 1 also wrote its hash: read and dropped). */
const LayerRecordSchema = lazySchema(() => z.object({ tokens: Count }) satisfies z.ZodType<LayerRecord>);

const EnvelopeRecordSchema = lazySchema(() => z.object({
  layers: z.object(Object.fromEntries(LAYER_IDS.map((id) => [id, LayerRecordSchema()])) as Record<LayerId, ReturnType<typeof LayerRecordSchema>>),
  promptTokens: orElse(Count, 0),
  prefixChange: orElse(z.object({ reason: z.enum(PREFIX_CHANGE_REASONS), detail: Text }).nullable(), null, 'read as no change'),
  full: orElse(listOf(PathText), []),
  freshness: orElse(
    listOf(leftOut(z.object({ id: PathText, status: z.enum(FRESHNESS_STATUSES), fromVersion: Count, toVersion: leftOut(Count).optional() }), 'left out')),
    [],
  ),
  removed: orElse(listOf(PathText), []),
  compile: leftOut(z.object({ mode: z.enum(COMPILE_MODES), reason: Text })).optional(),
}) satisfies z.ZodType<EnvelopeRecord>);

/** A Vault QA turn's search (src/core/conversation/records/search.ts): a damaged one is left out (the view then lists no sources). */
const SearchRecord = lazySchema(() => z.object({
  query: Text,
  sources: listOf(z.object({ path: PathText, heading: orElse(PathText, '') })),
  rewrite: leftOut(
    z.object({
      status: z.enum(REWRITE_STATUSES),
      key: orElse(Text, ''),
      detail: leftOut(Text).optional(),
      provider: leftOut(Name).optional(),
      model: leftOut(Name).optional(),
      usage: leftOut(UsageRecord()).optional(),
      cost: leftOut(z.number().nullable()).optional(),
    }),
  ).optional(),
}) satisfies z.ZodType<TurnSearch>);

/** An agent turn's loop (src/core/conversation/records/agent.ts): a damaged one is left out (the view then shows no steps). */
const AgentRecordSchema = lazySchema(() => z.object({
  stop: orElse(z.enum(['answered', 'step-limit', 'interrupted']), 'answered'),
  steps: orElse(
    listOf(
      leftOut(
        z.object({
          text: orElse(Content, ''),
          calls: orElse(
            listOf(
              leftOut(
                z.object({
                  id: Name,
                  name: Name,
                  args: orElse(jsonAtMost(STORED_LIMITS.json, z.record(z.string(), z.unknown())), {}),
                  chars: orElse(Count, 0),
                  ms: orElse(Count, 0),
                  isError: orElse(z.boolean(), false),
                }),
                'left out',
              ),
            ),
            [],
          ),
          usage: orElse(UsageRecord(), { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 }),
          usageReported: orElse(z.boolean(), true),
          promptTokens: orElse(Count, 0),
        }),
        'left out',
      ),
    ),
    [],
  ),
}) satisfies z.ZodType<AgentTurn>);

/**
 * One turn's record as the schema reads it. `at` is null when unreadable: the reader (meta.ts) puts the
 * chat's creation time there, which makes it a TurnRecord.
 */
// Its reads are kept by the parsed object (strictRead's keepReads): a chat reopened in the session reads only new lines.
const TurnRecordSchema = lazySchema(() => keepReads(z.object({
  status: required(z.enum(TURN_STATUSES), 'complete', 'read as complete if it has a reply'),
  at: orElse(Time().nullable(), null, "the chat's creation time is used"),
  replyAt: leftOut(Time()).optional(),
  provider: leftOut(Name).optional(),
  model: leftOut(Name).optional(),
  textHash: leftOut(Name).optional(),
  replyHash: leftOut(Name).optional(),
  chips: leftOut(listOf(leftOut(ChipRecord(), 'left out'))).optional(),
  referenced: orElse(listOf(PathText), []),
  problems: orElse(listOf(leftOut(ProblemRecord(), 'left out')), []),
  images: leftOut(listOf(leftOut(ImageRefRecord(), 'left out: history sends a marker for it')), 'left out').optional(),
  search: leftOut(SearchRecord(), 'the search record is left out').optional(),
  agent: leftOut(AgentRecordSchema(), 'the agent steps are left out').optional(),
  plan: leftOut(PlanRecordSchema(), 'the context plan is left out').optional(),
  envelope: leftOut(EnvelopeRecordSchema(), 'the envelope record is left out').optional(),
  usage: leftOut(UsageRecord().nullable()).optional(),
  cost: leftOut(z.number().nullable()).optional(),
  error: leftOut(Text).optional(),
  /** Token counts of its message blocks, by tokenizer and block hash (blockTokens.ts). */
  tokens: leftOut(Text, 'its messages are counted again').optional(),
})));

export type ParsedTurnRecord = z.infer<ReturnType<typeof TurnRecordSchema>>;
const EMPTY_TURN: ParsedTurnRecord = { status: 'complete', at: null, referenced: [], problems: [] };

// Its reads are kept like the turn records' (keepReads).
const ItemRefRecord = lazySchema(() => keepReads(z
  .object({
    id: PathText,
    kind: z.enum(ITEM_KINDS),
    title: leftOut(PathText, 'the id is used').optional(),
    source: PathText,
    via: leftOut(PathText).optional(),
    version: z.int().min(1),
    hash: orElse(Name, ''),
    tokens: orElse(Count, 0),
    enteredTurn: z.int().min(1),
    /** A planned item: its summary or extract, as sent (kept so a reopened chat sends the same bytes). */
    planned: leftOut(PlannedFormRecord(), 'read as the whole text').optional(),
    content: leftOut(Content).optional(),
  })
  .transform(({ title, ...ref }) => ({ ...ref, title: title ?? ref.id })) satisfies z.ZodType<ItemRef>));

const PendingEventRecord = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('removed'), id: PathText }),
  z.object({ type: z.literal('condensed'), through: Count, kind: z.enum(COMPACTION_KINDS) }),
  z.object({ type: z.literal('truncated'), turns: Count }),
  z.object({ type: z.literal('rendering'), rendering: z.enum(RENDERINGS) }),
  z.object({ type: z.literal('edited'), ids: listOf(PathText) }),
  z.object({ type: z.literal('image-changed'), paths: listOf(PathText) }),
  z.object({ type: z.literal('project'), from: Name, to: Name }),
  z.object({ type: z.literal('replanned'), ids: listOf(PathText), detail: Text }),
  z.object({ type: z.literal('library-condensed'), ids: listOf(PathText), rewritten: z.boolean() }),
]) satisfies z.ZodType<PendingEvent>);

const CondensedEntryRecord = lazySchema(() => z.object({
  id: PathText,
  version: z.int().min(1),
  title: PathText,
  source: PathText,
  form: z.enum(CONDENSED_FORMS),
  text: Text,
}) satisfies z.ZodType<CondensedEntry>);

/** The condensed library as sent (its entries' texts too: an outline or summary made then is sent again byte for byte). */
const LibraryCondensingRecord = lazySchema(() => z.object({ rounds: Count, entries: z.array(CondensedEntryRecord()) }) satisfies z.ZodType<LibraryCondensing>);

const SummaryCallsRecord = lazySchema(() => z.object({ provider: Name, model: Name, usage: UsageRecord(), calls: Count }));

/** A kept turn's tool output as a compaction sends it: the exact text, so a reopened chat sends the same bytes. */
const ToolFormRecord = lazySchema(() => z.object({ turn: z.int().min(1), index: Count, kind: z.enum(TOOL_FORM_KINDS), hash: Name, text: Content }) satisfies z.ZodType<ToolForm>);

/**
 * One compaction (its text is the summary callout in the body, `textHash` tells a hand edit). What
 * the engine renders from it (boundary, kind, masking) must read, or the record is left out (its
 * callout, if any, is then read without it); what only reports it falls back to neutral values.
 */
const CompactionRecordSchema = lazySchema(() => z.object({
  trigger: orElse(z.enum(COMPACTION_TRIGGERS), 'auto'),
  through: z.int().min(1),
  previous: orElse(Count, 0),
  kind: z.enum(COMPACTION_KINDS),
  turnsDropped: orElse(Count, 0),
  outputsMasked: orElse(Count, 0),
  tokensBefore: orElse(Count, 0),
  tokensAfter: orElse(Count, 0),
  summary: orElse(SummaryCallsRecord().nullable(), null, 'read as no summarizing calls'),
  fallback: leftOut(Text).optional(),
  library: leftOut(z.object({ condensed: Count, summaries: Count, rewritten: z.boolean() }), 'read without its library condensing figures').optional(),
  maskedThrough: Count,
  masking: z.object({ maxOutputLines: Count, maxCodeLines: Count }),
  outputsShortened: leftOut(Count).optional(),
  toolForms: leftOut(listOf(ToolFormRecord()), 'its tool outputs are sent verbatim').optional(),
  at: orElse(Time().nullable(), null, "the chat's creation time is used"),
  cost: orElse(z.number().nullable(), null, 'read as unknown'),
  textHash: leftOut(Name).optional(),
}));

export type CompactionMetaRecord = z.infer<ReturnType<typeof CompactionRecordSchema>>;

/**
 * A chat data list record read once now (a save that wrote its line), so that reading the note
 * back finds it read (strictRead's kept reads): its value is kept by the parsed object.
 */
export function readListRecordAhead(kind: 'turn' | 'item', value: unknown): void {
  readStrict(kind === 'turn' ? TurnRecordSchema() : ItemRefRecord(), value);
}

const CommittedRequestRecord = lazySchema(() => z.object({
  count: Count,
  combined: Name,
  model: Name,
  staticFragments: listOf(PathText),
  libraryVersions: Count,
}) satisfies z.ZodType<CommittedRequest>);

const HunkRecord = lazySchema(() => z.object({ id: Name, baseStart: Count, baseLines: listOf(Content), newLines: listOf(Content) }) satisfies z.ZodType<Hunk>);

/** An applied edit (records/edits.ts); its hunks at most KEPT_HUNK_CHARS of JSON, as the writer keeps them. */
const EditRecordSchema = lazySchema(() => z.object({
  proposalId: Name,
  kind: z.enum(EDIT_KINDS),
  path: PathText,
  newPath: leftOut(PathText).optional(),
  beforeHash: Name,
  afterHash: Name,
  hunks: jsonAtMost(KEPT_HUNK_CHARS, listOf(HunkRecord())),
  undone: leftOut(z.literal(true)).optional(),
  at: Time(),
  summary: orElse(Text, ''),
  hunksLeftOut: leftOut(z.literal(true)).optional(),
}) satisfies z.ZodType<EditEntry>);

/** The machine state under `strata`. Null id and library mean unreadable: the reader rebuilds them. */
const StrataRecord = lazySchema(() => z.object({
  format: orElse(z.literal(FORMAT_VERSIONS), FORMAT_VERSION, `read as format ${FORMAT_VERSION}`),
  id: orElse(z.string().min(1).max(STORED_LIMITS.name).nullable(), null, 'a new id is used'),
  titleSource: orElse(z.enum(TITLE_SOURCES), 'first-message'),
  /** The chat's project id (src/core/projects): kept even when no project has it any more (the chat shows it missing). */
  project: leftOut(nonBlank(STORED_LIMITS.name), 'the chat is read without a project').optional(),
  titleCall: leftOut(z.object({ provider: Name, model: Name, usage: UsageRecord(), cost: orElse(z.number().nullable(), null, 'read as unknown') }), 'its cost is left out').optional(),
  session: orElse(ProviderSessionSchema().nullable(), null, 'the provider starts a new session'),
  lastRequest: orElse(CommittedRequestRecord().nullable(), null, 'the next request cannot prove it extends the last one'),
  pending: orElse(listOf(leftOut(PendingEventRecord(), 'left out: the next prefix break may be named history-edited')), [], 'no pending events'),
  condensedLibrary: leftOut(LibraryCondensingRecord(), 'left out: condensed library items go back to the library block in full').optional(),
  library: orElse(z.array(leftOut(ItemRefRecord(), 'left out of the library')).nullable(), null, 'the library is rebuilt from the context lists'),
  compactions: orElse(
    z.array(leftOut(CompactionRecordSchema(), 'left out: its summary callout, if any, is read without it')),
    [],
    'no compaction records: summary callouts are read without them',
  ),
  turns: orElse(z.array(required(TurnRecordSchema(), EMPTY_TURN, 'an empty record is used')), [], 'turn metadata is rebuilt from the text'),
  plan: leftOut(PlanBookSchema(), 'the kept plan decisions are left out: items are decided again').optional(),
  writePolicy: leftOut(WritePolicySchema(), "the chat's write policy is left out: its project's or the settings' is used").optional(),
  edits: orElse(listOf(leftOut(EditRecordSchema(), 'left out: that edit can no longer be undone from the chat')), [], 'no applied edits are known'),
}));

/** The whole frontmatter (keys other than these are the user's and are kept as they are). Null times: unreadable. */
export const Frontmatter = lazySchema(() => z.object({
  title: orElse(nonBlank(STORED_LIMITS.path), 'Untitled chat'),
  created: orElse(Time().nullable(), null, 'the load time is used'),
  updated: orElse(Time().nullable(), null, 'the creation time is used'),
  provider: orElse(nonBlank(STORED_LIMITS.name), 'unknown'),
  model: orElse(nonBlank(STORED_LIMITS.name), 'unknown'),
  mode: orElse(nonBlank(STORED_LIMITS.name), DEFAULT_MODE),
  strata: required<z.infer<ReturnType<typeof StrataRecord>> | null>(StrataRecord(), null, 'the chat is read from its text only'),
}));

export type Frontmatter = z.infer<ReturnType<typeof Frontmatter>>;

export const EMPTY_FRONTMATTER: Frontmatter = {
  title: 'Untitled chat',
  created: null,
  updated: null,
  provider: 'unknown',
  model: 'unknown',
  mode: DEFAULT_MODE,
  strata: null,
};
