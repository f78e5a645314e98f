import { LAYER_IDS as LAYERS, type LayerId } from '../engine/types';
import type { ReplayedTurn } from './replay';

/** One inspector record per turn. Field names are a user-facing contract: keep them stable. */
export interface InspectRecord {
  turn: number;
  model: string;
  messages: Array<{ role: string; content: string }>;
  layers: Record<LayerId, { tokens: number; hash: string }>;
  promptTokens: number;
  prefixHash: string;
  prefixChange: string | null;
  prefixChangeDetail: string | null;
  full: string[];
  referenced: string[];
  freshness: Array<{ id: string; status: string; fromVersion: number; toVersion?: number }>;
  unresolved: Array<{ id: string; reason: string; detail: string }>;
  removed: string[];
  reply: string;
}

export function toInspectRecord({ turn, assembly, reply }: ReplayedTurn): InspectRecord {
  const { envelope } = assembly;
  const layers = {} as InspectRecord['layers'];
  for (const id of LAYERS) layers[id] = { tokens: envelope.layers[id].tokens, hash: envelope.layers[id].hash };
  return {
    turn,
    model: envelope.model,
    messages: assembly.messages.map((m) => ({ role: m.role, content: m.content })),
    layers,
    promptTokens: assembly.promptTokens,
    prefixHash: assembly.prefixHash,
    prefixChange: assembly.prefixChange?.reason ?? null,
    prefixChangeDetail: assembly.prefixChange?.detail ?? null,
    full: [...envelope.full],
    referenced: [...envelope.referenced],
    freshness: envelope.freshness.map((f) => ({
      id: f.id,
      status: f.status,
      fromVersion: f.fromVersion,
      ...(f.toVersion !== undefined ? { toVersion: f.toVersion } : {}),
    })),
    unresolved: envelope.unresolved.map((p) => ({ id: p.chipId, reason: p.reason, detail: p.detail })),
    removed: [...envelope.removed],
    reply,
  };
}

export function formatJsonl(turns: readonly ReplayedTurn[]): string {
  return turns.map((t) => JSON.stringify(toInspectRecord(t))).join('\n') + '\n';
}

/** A readable per-turn summary: tokens per layer, what went in full or by reference, prefix changes. */
export function formatTable(title: string, turns: readonly ReplayedTurn[]): string {
  const rows = turns.map((t) => toInspectRecord(t));
  const header = ['turn', 'L1', 'L2', 'L3', 'L4', 'L5', 'prompt', 'full', 'ref', 'prefix'];
  const body = rows.map((r) => [
    String(r.turn),
    ...LAYERS.map((l) => String(r.layers[l].tokens)),
    String(r.promptTokens),
    String(r.full.length),
    String(r.referenced.length),
    r.prefixChange ?? 'extends',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [title, '', line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line), ''];
  const notes: string[] = [];
  for (const r of rows) {
    const parts: string[] = [];
    if (r.full.length) parts.push(`full: ${r.full.join(', ')}`);
    if (r.referenced.length) parts.push(`by reference: ${r.referenced.join(', ')}`);
    for (const f of r.freshness) parts.push(`freshness: ${f.id} ${f.status}${f.toVersion ? ` (v${f.fromVersion} → v${f.toVersion})` : ''}`);
    for (const u of r.unresolved) parts.push(`not attached: ${u.id} (${u.reason}: ${u.detail})`);
    if (r.removed.length) parts.push(`removed from library: ${r.removed.join(', ')}`);
    if (r.prefixChange) parts.push(`prefix changed: ${r.prefixChange} — ${r.prefixChangeDetail}`);
    if (parts.length) notes.push(`turn ${r.turn}: ${parts.join('; ')}`);
  }
  if (notes.length) out.push(...notes, '');
  const total = rows.reduce((sum, r) => sum + r.promptTokens, 0);
  out.push(`${rows.length} turns, ${total} prompt tokens in all (tokenizer for ${rows[0]?.model ?? '?'}).`);
  return out.join('\n') + '\n';
}
