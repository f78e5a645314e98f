import { budgetOrigin } from '../../core/budget/condense';
import type { InputBudget } from '../../core/budget/budget';
import type { ContextUsage } from '../../core/chat/contextUsage';
import type { ContextChip } from '../../core/context/items';
import type { FreshnessStatus } from '../../core/engine/types';
import type { Usage } from '../../core/usage';

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function formatUsd(usd: number | null): string {
  if (usd === null) return 'unknown price';
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

export function cachedShareOf(usage: Usage): number {
  return usage.inputTokens === 0 ? 0 : usage.cachedReadTokens / usage.inputTokens;
}

/** A chip's label as the user sees it. */
export function chipLabel(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
      return basename(chip.path);
    case 'folder':
      return `${chip.path || '/'}/`;
    case 'tag':
      return chip.tag.startsWith('#') ? chip.tag : `#${chip.tag}`;
    case 'url':
      return chip.title ?? chip.url;
    case 'selection':
      return chip.fromLine === chip.toLine ? `${basename(chip.path)} (line ${chip.fromLine})` : `${basename(chip.path)} (${chip.fromLine}-${chip.toLine})`;
    case 'pdf':
      return basename(chip.path);
    case 'canvas':
      return basename(chip.path).replace(/\.canvas$/i, '');
  }
}

export function chipIcon(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
      return 'file-text';
    case 'folder':
      return 'folder';
    case 'tag':
      return 'tag';
    case 'url':
      return 'link';
    case 'selection':
      return 'text-cursor-input';
    case 'pdf':
      return 'book-open';
    case 'canvas':
      return 'layout-dashboard';
  }
}

/** A chip's key in the DOM (`data-chip`): the same chip, in the row or the `@` picker, has the same key. */
export function chipKey(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
    case 'folder':
    case 'pdf':
    case 'canvas':
      return `${chip.kind}:${chip.path}`;
    case 'tag':
      return `tag:${chip.tag}`;
    case 'url':
      return `url:${chip.url}`;
    case 'selection':
      return `selection:${chip.path}#${chip.fromLine}-${chip.toLine}`;
  }
}

/** A chip's tooltip: what it attaches. */
export function chipTitle(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
      return chip.path;
    case 'folder':
      return `Every note in ${chip.path || '/'}`;
    case 'tag':
      return `Every note tagged ${chipLabel(chip)}`;
    case 'url':
      return chip.url;
    case 'selection':
      return chip.fromLine === chip.toLine ? `${chip.path}, line ${chip.fromLine}` : `${chip.path}, lines ${chip.fromLine}-${chip.toLine}`;
    case 'pdf':
      return `${chip.path}: its text, page by page`;
    case 'canvas':
      return `${chip.path}: the canvas as text (its cards, linked notes by name, links, groups and arrows)`;
  }
}

export function basename(path: string): string {
  const file = path.split('/').pop() ?? path;
  return file.replace(/\.md$/i, '');
}

export function sameChip(a: ContextChip, b: ContextChip): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'note':
    case 'folder':
    case 'pdf':
    case 'canvas':
      return a.path === (b as typeof a).path;
    case 'tag':
      return a.tag === (b as typeof a).tag;
    case 'url':
      return a.url === (b as typeof a).url;
    case 'selection': {
      const s = b as typeof a;
      return a.path === s.path && a.fromLine === s.fromLine && a.toLine === s.toLine;
    }
  }
}

/** What the freshness policy did with a changed or missing library note, in words. */
export function freshnessText(status: FreshnessStatus): string {
  switch (status) {
    case 'updated':
      return 'the note changed since it was sent; the new version is sent in full';
    case 'stale-kept':
      return 'the note changed since it was sent; the library copy is kept';
    case 'missing-kept':
      return 'the note is no longer in the vault; the library copy is kept';
  }
}

const n = (x: number) => x.toLocaleString('en-US');

/** Where the budget comes from, in words. */
export function budgetText(budget: InputBudget): string {
  return `Budget: ${budgetOrigin(budget)}.`;
}

/** Where the next request stands against the condense threshold: a few words for the usage line, a sentence for the panel. */
export function condenseStatus(usage: ContextUsage): { short: string; long: string; tone: string } {
  const { budget } = usage;
  const share = budget.tokens > 0 ? formatPercent(budget.threshold / budget.tokens) : '';
  if (usage.status === 'over-budget') {
    return budget.autoCondense
      ? { short: 'condenses on next send', long: `Over the ${n(budget.tokens)}-token budget: the next send condenses the chat first.`, tone: 'is-over' }
      : { short: 'over budget', long: `Over the ${n(budget.tokens)}-token budget and auto-condense is off: condense now, or the next send is refused.`, tone: 'is-over' };
  }
  if (!budget.autoCondense) {
    return { short: 'auto-condense off', long: `Auto-condense is off: the chat is condensed only when you ask; a request over the ${n(budget.tokens)}-token budget is refused.`, tone: '' };
  }
  if (usage.status === 'over-threshold') {
    return { short: 'condenses on next send', long: `Past the condense threshold (${n(budget.threshold)} tokens, ${share} of the budget): the next send condenses the chat first.`, tone: 'is-high' };
  }
  return {
    short: `condenses at ${formatTokens(budget.threshold)}`,
    long: `Condenses at ${n(budget.threshold)} tokens (${share} of the budget): ${n(usage.untilCondense)} to go.`,
    tone: '',
  };
}
