import type { ContextChip } from '../context/items';
import type { TurnAssembly } from '../engine/turnAssembly';
import type { LibraryItem } from '../engine/types';
import type { Compaction } from '../engine/compaction';
import type { CompactionRecord, EnvelopeRecord, ItemRef } from './model';
import { madeOnce } from '../memo';

// Items are immutable: one ref per item, so each save finds the library's refs (and their encoded lines) unchanged.
const refs = new WeakMap<LibraryItem, ItemRef>();

/** A library item as a chat note keeps it: the text only for URLs (not in the vault). */
export function toRef(item: LibraryItem): ItemRef {
  return madeOnce(refs, item, refOf);
}

function refOf(item: LibraryItem): ItemRef {
  return {
    id: item.id,
    kind: item.kind,
    title: item.title,
    source: item.source,
    ...(item.via !== undefined ? { via: item.via } : {}),
    version: item.version,
    hash: item.hash,
    tokens: item.tokens,
    enteredTurn: item.enteredTurn,
    // URL pages are not in the vault; a planned summary or extract is kept as sent (sticky across reopening).
    ...(item.kind === 'url' || item.planned ? { content: item.content } : {}),
    ...(item.planned ? { planned: item.planned } : {}),
  };
}

/** A chip as a chat keeps it: URL page text is kept once, with the library item, not on every turn. */
export function savedChip(chip: ContextChip): ContextChip {
  if (chip.kind !== 'url') return chip;
  return { kind: 'url', url: chip.url, ...(chip.title !== undefined ? { title: chip.title } : {}) };
}

export function envelopeRecord(assembly: TurnAssembly): EnvelopeRecord {
  const { envelope } = assembly;
  const layer = (id: keyof typeof envelope.layers) => ({ tokens: envelope.layers[id].tokens });
  return {
    layers: { L1: layer('L1'), L2: layer('L2'), L3: layer('L3'), L4: layer('L4'), L5: layer('L5') },
    promptTokens: assembly.promptTokens,
    prefixChange: assembly.prefixChange ? { reason: assembly.prefixChange.reason, detail: assembly.prefixChange.detail } : null,
    full: [...envelope.full],
    freshness: envelope.freshness.map((f) => ({ id: f.id, status: f.status, fromVersion: f.fromVersion, ...(f.toVersion !== undefined ? { toVersion: f.toVersion } : {}) })),
    removed: [...envelope.removed],
  };
}

/** What the engine renders from a compaction record. */
export function compactionOf(record: CompactionRecord): Compaction {
  return {
    through: record.through,
    kind: record.kind,
    text: record.text,
    maskedThrough: record.maskedThrough,
    masking: record.masking,
    ...(record.toolForms && record.toolForms.length > 0 ? { toolForms: record.toolForms } : {}),
  };
}
