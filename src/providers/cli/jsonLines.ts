export type Json = Readonly<Record<string, unknown>>;

/** The value as a JSON object, or undefined (arrays and primitives are not events). */
export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/**
 * Splits a CLI's JSON-lines output (one JSON object per line, cut anywhere across chunks) into
 * events. Lines that are not JSON (warnings, logs) are kept in `stray` for the error summary.
 */
export class JsonLines {
  private buffer = '';
  readonly stray: string[] = [];

  constructor(private readonly onEvent: (event: Json) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      this.line(this.buffer.slice(0, newline));
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
    }
  }

  end(): void {
    if (this.buffer.trim()) this.line(this.buffer);
    this.buffer = '';
  }

  private line(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.stray.push(text);
      return;
    }
    const event = obj(parsed);
    if (event) this.onEvent(event);
  }
}
