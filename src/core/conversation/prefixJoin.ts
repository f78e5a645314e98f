/**
 * Joins a list of strings that usually only grows (a chat note's lines, turn by turn): when the list
 * starts with the strings joined last time (the same string objects, which the codec's memos hand
 * back for unchanged turns), only the new ones are joined and appended. Any other change joins afresh.
 * The result is the same string `parts.join('')` gives.
 */
export class PrefixJoin {
  private parts: string[] = [];
  private text = '';

  join(parts: readonly string[]): string {
    const kept = this.parts;
    let same = parts.length >= kept.length;
    for (let i = 0; same && i < kept.length; i++) same = parts[i] === kept[i];
    if (!same) {
      this.parts = parts.slice();
      this.text = this.parts.join('');
      return this.text;
    }
    if (parts.length > kept.length) {
      const added = parts.slice(kept.length);
      for (const part of added) kept.push(part);
      this.text += added.join('');
    }
    return this.text;
  }
}

/** PrefixJoins per key (a chat id) for the few keys used lately, so chats saved in turn do not join each other's lists afresh. */
export class PrefixJoins<T> {
  private readonly byKey = new Map<string, T>();

  constructor(
    private readonly make: () => T,
    private readonly max = 4,
  ) {}

  for(key: string): T {
    let entry = this.byKey.get(key);
    if (entry) this.byKey.delete(key);
    else entry = this.make();
    this.byKey.set(key, entry);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value as string);
    return entry;
  }
}
