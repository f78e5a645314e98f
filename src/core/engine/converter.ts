import type { ChatMessage, ToolStep } from './messages';
import { LIBRARY_INSTRUCTION, renderDynamic, renderItem, renderLostImage, renderProblems, renderReferences, renderTool, renderUserText } from './render';
import { escapeContent } from './escape';
import { closeTag, openTag } from './wrappers';
import { condensedBlockParts, condensedPart } from './condensedLibrary';
import type { Envelope, HistoryTurn, ImagePart, ItemSegment, LibraryItem } from './types';
import type { HistoryRun, RenderedMessage } from './historyRun';
import type { Rendering } from '../settings/engineChoices';
import { systemMessage, type StablePart } from './systemBlocks';
import { agentCallCount, toolStepsOf } from './agentHistory';

export type { RenderedMessage } from './historyRun';

/** The separator between blocks of one message. */
export const SEP = '\n\n';

/** A message of blocks; a user message's images (if any) go after its text. */
function message(role: ChatMessage['role'], parts: readonly string[], images?: readonly ImagePart[]): RenderedMessage {
  // One part is its own content (the same string, so memos keyed by it find it without hashing a copy).
  return { role, content: parts.length === 1 ? parts[0] : parts.join(SEP), parts, ...(images && images.length > 0 ? { images } : {}) };
}

/** A rendered message as a provider gets it (its blocks joined; its images kept). */
export function plainMessage({ parts: _parts, ...m }: RenderedMessage): ChatMessage {
  return m;
}

export class LayerToMessagesConverter {
  constructor(private readonly rendering: Rendering = 'transcript') {}

  convert(envelope: Envelope): ChatMessage[] {
    return this.render(envelope).map(plainMessage);
  }

  /**
   * The messages with their blocks: what the engine counts tokens from. With the engine's history
   * run (transcript rendering), history messages rendered by an earlier assembly are reused and only
   * the segments after them are rendered (and added to the run).
   */
  render(envelope: Envelope, run?: HistoryRun): RenderedMessage[] {
    return this.rendering === 'seed' ? this.seed(envelope) : this.transcript(envelope, run && continuesRun(run, envelope) ? run : undefined);
  }

  private transcript(envelope: Envelope, run?: HistoryRun): RenderedMessage[] {
    const { L1, L2, L3, L4, L5 } = envelope.layers;
    const statics = L1.segments.filter((s) => s.lifecycle === 'static').map((s) => s.text);
    const dynamics = L1.segments.filter((s) => s.lifecycle === 'dynamic');
    const { carried, entered } = splitLibrary(L2.segments, envelope.condensedThrough, condensedVersions(envelope));
    // Condensed items come first, in a block that only grows (condensedLibrary.ts); then the items of
    // condensed turns, so this block changes only when the library does. Each is a stable part of
    // chunks (one per condensed item; one per turn the carried items entered in), for Anthropic's blocks.
    const condensed = condensedPart(envelope.condensedLibrary ?? null);
    const library: StablePart = { open: [openTag('context_library')], chunks: chunksByTurn(carried), close: [closeTag('context_library')] };
    const messages: RenderedMessage[] = [systemMessage([...statics, LIBRARY_INSTRUCTION], [condensed, library])];

    // What rendering a history user message needs: built only when one is not in the run yet.
    let context: { enteredBy: Map<number, LibraryItem[]>; firstEntered: Map<string, number>; records: Map<number, HistoryTurn> } | null = null;
    const history: RenderedMessage[] = run ? run.messages : [];
    let lead: string[] = run ? run.lead : [];
    let steps: ToolStep[] | null = null;
    const segments = L4.segments;
    for (let i = run ? run.rendered : 0; i < segments.length; i++) {
      const segment = segments[i];
      if (segment.type === 'summary') {
        lead = [segment.text];
        continue;
      }
      if (segment.role === 'assistant') {
        // An agent turn's reply goes after its steps, sent as the provider's own tool messages.
        history.push(steps ? { ...message('assistant', [segment.text]), steps } : message('assistant', [segment.text]));
        steps = null;
        continue;
      }
      context ??= {
        enteredBy: groupByTurn(entered.map((s) => s.item)),
        firstEntered: firstEntries(L2.segments),
        records: new Map(envelope.history.map((h) => [h.turn, h])),
      };
      const record = context.records.get(segment.turn);
      steps = record?.agent ? toolStepsOf(record.agent, record.tools) : null;
      // Its user message as the loop's first request sent it: without the results, which the steps carry.
      const sent = steps && record?.agent ? { ...record, tools: record.tools.slice(0, record.tools.length - agentCallCount(record.agent)) } : record;
      history.push(message('user', [...lead, ...historyUserBlocks(segment.text, sent, context.enteredBy.get(segment.turn) ?? [], context.firstEntered)], record?.images));
      lead = [];
    }
    if (run) {
      run.rendered = segments.length;
      run.lead = lead;
    }
    for (const m of history) messages.push(m);

    const current = [
      ...lead,
      ...(dynamics.length > 0 ? [renderDynamic(dynamics)] : []),
      ...L3.segments.map((s) => s.text),
      ...L5.segments.map((s) => renderUserText(s.text)),
    ];
    messages.push(message('user', current, envelope.images));
    return messages;
  }

  private seed(envelope: Envelope): RenderedMessage[] {
    const { L1, L2, L3, L4, L5 } = envelope.layers;
    // Dynamic fragments carry host data (the open note's name): escaped like content. Static ones are the user's own instructions.
    const system = [...L1.segments.map((s) => (s.lifecycle === 'dynamic' ? escapeContent(s.text) : s.text)), LIBRARY_INSTRUCTION, ...condensedBlockParts(envelope.condensedLibrary ?? null)];
    const condensed = condensedVersions(envelope);
    const library = condensed.size > 0 ? L2.segments.filter((s) => !condensed.has(`${s.item.id}@${s.item.version}`)) : L2.segments;
    if (library.length > 0) {
      // One part per item, so each is counted once however often the system message is rebuilt.
      system.push(openTag('context_library'), ...library.map((s) => s.text), closeTag('context_library'));
    }
    const messages: RenderedMessage[] = [message('system', system)];
    const historyByTurn = new Map(envelope.history.map((h) => [h.turn, h]));
    let lead: string[] = [];
    // Assistant messages go back exactly as the model wrote them (session providers hash them).
    for (const segment of L4.segments) {
      if (segment.type === 'summary') {
        lead = [segment.text];
      } else if (segment.role === 'assistant') {
        messages.push(message('assistant', [segment.text]));
      } else {
        // Raw, without context blocks; its images belong to the message and stay with it.
        const record = historyByTurn.get(segment.turn);
        messages.push(message('user', [...lead, renderUserText(segment.text), ...lostMarkers(record)], record?.images));
        lead = [];
      }
    }
    messages.push(message('user', [...lead, ...L3.segments.map((s) => s.text), ...L5.segments.map((s) => renderUserText(s.text))], envelope.images));
    return messages;
  }
}

/** The blocks of an earlier user message exactly as it was sent in its turn (minus items the user has since removed). */
function historyUserBlocks(
  text: string,
  record: HistoryTurn | undefined,
  entered: readonly LibraryItem[],
  firstEntered: ReadonlyMap<string, number>,
): string[] {
  const blocks: string[] = [];
  if (record && record.dynamic.length > 0) blocks.push(renderDynamic(record.dynamic));
  for (const tool of record?.tools ?? []) blocks.push(renderTool(tool));
  // A reference stays while its item has been in the library since before that turn: an item removed
  // and attached again counts from its new entry, so the earlier message stays as the chat sent it
  // after the removal (the same for a chat kept open and one reopened from its note).
  const turn = record?.turn ?? 0;
  const refs = (record?.referenced ?? []).filter((id) => (firstEntered.get(id) ?? Infinity) < turn);
  if (refs.length > 0) blocks.push(renderReferences(refs));
  for (const item of entered) blocks.push(renderItem(item));
  if (record && record.problems.length > 0) blocks.push(renderProblems(record.problems));
  blocks.push(renderUserText(text), ...lostMarkers(record));
  return blocks;
}

/** Each library id's earliest entry (turn) among the versions the library holds. */
function firstEntries(segments: readonly ItemSegment[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const { item } of segments) if (!((first.get(item.id) ?? Infinity) <= item.enteredTurn)) first.set(item.id, item.enteredTurn);
  return first;
}

/** The run holds the first segments of this envelope's history (else the converter renders it all, without the run). */
function continuesRun(run: HistoryRun, envelope: Envelope): boolean {
  const segments = envelope.layers.L4.segments;
  return run.rendered <= segments.length && (run.rendered === 0 || run.segments[run.rendered - 1] === segments[run.rendered - 1]);
}

/** Markers for the images an earlier turn carried that a reopened chat could not read again. */
function lostMarkers(record: HistoryTurn | undefined): string[] {
  return (record?.lostImages ?? []).map(renderLostImage);
}

/**
 * Under a compaction through turn `through`: each id's latest version among those that entered in
 * condensed turns is carried (superseded ones are dropped), in the order those versions entered, so
 * a later compaction's block starts with this one's (new items and newer versions join its end).
 * Items that entered in kept turns render where they entered, a newer version as an update.
 */
/** The item versions the condensed block stands for, as id@version: the library block leaves them out. */
function condensedVersions(envelope: Envelope): Set<string> {
  return new Set((envelope.condensedLibrary?.entries ?? []).map((e) => `${e.id}@${e.version}`));
}

function splitLibrary(segments: readonly ItemSegment[], through: number, condensed: ReadonlySet<string>): { carried: ItemSegment[]; entered: ItemSegment[] } {
  if (through <= 0) return { carried: [], entered: [...segments] };
  const latest = new Map<string, ItemSegment>();
  for (const s of segments) if (s.item.enteredTurn <= through) latest.set(s.item.id, s);
  // A condensed version is in the condensed block instead (a newer one, attached again, renders where it entered).
  const carried = segments.filter((s) => latest.get(s.item.id) === s && !condensed.has(`${s.item.id}@${s.item.version}`));
  return { carried, entered: segments.filter((s) => s.item.enteredTurn > through) };
}

/** Carried items' texts, one chunk per turn they entered in (in the block's order). */
function chunksByTurn(carried: readonly ItemSegment[]): string[][] {
  const chunks: string[][] = [];
  let turn = NaN;
  for (const s of carried) {
    if (s.item.enteredTurn === turn) chunks[chunks.length - 1].push(s.text);
    else chunks.push([s.text]);
    turn = s.item.enteredTurn;
  }
  return chunks;
}

function groupByTurn(items: readonly LibraryItem[]): Map<number, LibraryItem[]> {
  const out = new Map<number, LibraryItem[]>();
  for (const item of items) {
    const list = out.get(item.enteredTurn);
    if (list) list.push(item);
    else out.set(item.enteredTurn, [item]);
  }
  return out;
}
