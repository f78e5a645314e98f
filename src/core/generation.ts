/**
 * Temperature and max output tokens: optional per provider and per model (a model's own value wins).
 * Unset means the provider's default, and nothing is added to the request.
 */
export interface GenerationOptions {
  /** 0–2 (Anthropic accepts 0–1 and refuses more: the provider says so). */
  readonly temperature?: number;
  /** The most tokens a reply may have; also what the budget keeps free for it. */
  readonly maxOutputTokens?: number;
}

export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;

/** Where the options live in a provider's settings. */
export interface GenerationSettings extends GenerationOptions {
  /** Per-model overrides, by exact model name. */
  readonly modelOptions?: Readonly<Record<string, GenerationOptions>>;
}

/** The options for `model` on a provider: the model's own values, else the provider's; unset stays unset. */
export function generationOptionsFor(provider: GenerationSettings | undefined, model: string): GenerationOptions {
  if (!provider) return {};
  const own = provider.modelOptions?.[model];
  const temperature = own?.temperature ?? provider.temperature;
  const maxOutputTokens = own?.maxOutputTokens ?? provider.maxOutputTokens;
  return { ...(temperature !== undefined ? { temperature } : {}), ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}) };
}

/** `llama3.1:8b = temperature 0.2, max output 2000` (a model name may hold a colon; never an `=`). */
export function formatModelOptions(options: Readonly<Record<string, GenerationOptions>> | undefined): string {
  return Object.entries(options ?? {})
    .map(([model, o]) => {
      const parts = [...(o.temperature !== undefined ? [`temperature ${o.temperature}`] : []), ...(o.maxOutputTokens !== undefined ? [`max output ${o.maxOutputTokens}`] : [])];
      return `${model} = ${parts.join(', ')}`;
    })
    .join('\n');
}

export interface ParsedModelOptions {
  readonly options: Record<string, GenerationOptions>;
  /** One sentence per line or part that was not understood (it is left out). */
  readonly errors: string[];
}

/** Reads the per-model overrides as typed in settings, one `model = temperature 0.2, max output 2000` per line. */
export function parseModelOptions(text: string): ParsedModelOptions {
  const options: Record<string, GenerationOptions> = {};
  const errors: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf('=');
    const model = at < 0 ? '' : line.slice(0, at).trim();
    if (!model) {
      errors.push(`"${line}": expected "model = temperature 0.2, max output 2000".`);
      continue;
    }
    let temperature: number | undefined;
    let maxOutputTokens: number | undefined;
    for (const part of line.slice(at + 1).split(',').map((p) => p.trim()).filter(Boolean)) {
      const match = /^(temperature|temp|max output tokens|max output|max tokens|max)\s*[:=]?\s*(\S+)$/i.exec(part);
      const value = match ? Number(match[2]) : NaN;
      if (match && /^temp/i.test(match[1]) && readTemperature(value) !== undefined) temperature = value;
      else if (match && !/^temp/i.test(match[1]) && readMaxOutput(value) !== undefined) maxOutputTokens = value;
      else errors.push(`${model}: "${part}" is not understood (temperature from 0 to 2; max output a whole number from 1).`);
    }
    if (temperature !== undefined || maxOutputTokens !== undefined) {
      options[model] = { ...(temperature !== undefined ? { temperature } : {}), ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}) };
    }
  }
  return { options, errors };
}

function readTemperature(value: number): number | undefined {
  return Number.isFinite(value) && value >= TEMPERATURE_RANGE.min && value <= TEMPERATURE_RANGE.max ? value : undefined;
}

function readMaxOutput(value: number): number | undefined {
  return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** A temperature as typed: empty is unset (null); otherwise a number from 0 to 2, or an error sentence. */
export function parseTemperature(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const t = text.trim();
  if (!t) return { ok: true, value: null };
  const value = readTemperature(Number(t.replace(',', '.')));
  return value === undefined ? { ok: false, error: `"${t}" is not a temperature: enter a number from 0 to 2, or leave empty for the provider's default.` } : { ok: true, value };
}

/** Max output tokens as typed: empty is unset (null); otherwise a whole number from 1, or an error sentence. */
export function parseMaxOutput(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const t = text.trim().replace(/(\d)[,_ ](?=\d{3}(?!\d))/g, '$1');
  if (!t) return { ok: true, value: null };
  const value = /^\d+$/.test(t) ? readMaxOutput(Number(t)) : undefined;
  return value === undefined ? { ok: false, error: `"${text.trim()}" is not a token count: enter a whole number from 1, or leave empty for the provider's default.` } : { ok: true, value };
}
