/** Plain-fetch helpers for the provider server tests. */
import type { WireJson } from '../../../testing/providerServer';

export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

export interface SseRead {
  readonly events: SseEvent[];
  /** Set when the stream ended abnormally (socket destroyed). */
  readonly error?: unknown;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** Reads a whole SSE response, keeping the events that arrived even when the stream breaks. */
export async function readSse(response: Response): Promise<SseRead> {
  const events: SseEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (): void => {
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event: string | undefined;
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) events.push({ event, data: data.join('\n') });
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      flush();
    }
  } catch (error) {
    flush();
    return { events, error };
  }
  return { events };
}

/** JSON payloads of the events (skipping OpenAI's `[DONE]`). */
export function payloads(read: SseRead): WireJson[] {
  return read.events.filter((e) => e.data !== '[DONE]').map((e): WireJson => JSON.parse(e.data));
}

/** A long, deterministic English-like text of about `words` words. */
export function filler(words: number, seed = 'alpha'): string {
  const vocabulary = ['river', 'stone', 'lantern', 'orchard', 'signal', 'harbor', 'meadow', 'copper', 'violet', 'summit', 'thread', 'canvas'];
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(i % 17 === 0 ? seed : vocabulary[(i * 7 + seed.length) % vocabulary.length]);
  return out.join(' ');
}
