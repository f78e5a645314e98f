/** Number formatting for the markdown report (fixed locale, so output does not depend on the machine). */

export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function ratio(r: number | null, digits = 2): string {
  return r === null || !Number.isFinite(r) ? 'n/a' : `${r.toFixed(digits)}×`;
}

export function ms(t: number): string {
  if (!Number.isFinite(t)) return 'n/a';
  if (t >= 100) return `${t.toFixed(0)} ms`;
  if (t >= 10) return `${t.toFixed(1)} ms`;
  return `${t.toFixed(2)} ms`;
}

export function mib(n: number): string {
  return `${n.toFixed(1)} MiB`;
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Characters in thousands ('918k'). */
export function kchars(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : `${(n / 1000).toFixed(1)}k`;
}

export function exponent(k: number | null): string {
  return k === null || !Number.isFinite(k) ? 'n/a' : k.toFixed(2);
}

export function pct(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** A markdown table; cells are escaped for pipes. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const sep = header.map((_, i) => ((align?.[i] ?? 'r') === 'l' ? '---' : '---:'));
  return [header, sep, ...rows].map((r) => `| ${r.map(esc).join(' | ')} |`).join('\n');
}
