/** Which tokenizer a model family uses. 'estimate' when no bundled encoding fits. */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'estimate';

// Ordered: the first matching rule wins, so specific names come before their prefixes.
const RULES: ReadonlyArray<[RegExp, EncodingName]> = [
  [/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/, 'o200k_base'],
  [/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/, 'cl100k_base'],
];

/** Resolve the encoding for a model name ("openai/gpt-4o" and "gpt-4o-2024-08-06" both work). */
export function encodingForModel(model: string): EncodingName {
  const name = model.toLowerCase().split('/').pop() ?? '';
  for (const [pattern, encoding] of RULES) if (pattern.test(name)) return encoding;
  return 'estimate';
}
