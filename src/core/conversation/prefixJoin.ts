/**
 * Joins a list of strings that mostly changes at its end (a chat note's lines, turn by turn): the
 * strings it shares with the list joined last time, from the start (the same string objects, which
 * the codec's memos hand back for unchanged turns), are taken from the last text; only the strings
 * after the first difference are joined. A new turn costs that turn; its reply replacing the turn's
 * waiting state costs that turn again; an edit near the top joins almost everything.
 * The result is always the string `parts.join('')` gives.
 */
export class PrefixJoin {
  private parts: string[] = [];
  /** Where each part ends in `text` (its length after it). */
  private ends: number[] = [];
  private text = '';

  join(parts: readonly string[]): string {
    const kept = this.parts;
    const limit = Math.min(parts.length, kept.length);
    let shared = 0;
    while (shared < limit && parts[shared] === kept[shared]) shared++;
    if (shared === kept.length && shared === parts.length) return this.text;
    return this.replaceFrom(shared, parts.slice(shared));
  }

  /** The first `shared` parts joined last time, then `tail`: for a caller that knows what is shared without comparing. */
  replaceFrom(shared: number, tail: readonly string[]): string {
    const kept = this.parts;
    const at = Math.min(shared, kept.length);
    if (at === kept.length && tail.length === 0) return this.text;
    const start = at === 0 ? 0 : this.ends[at - 1];
    kept.length = at;
    this.ends.length = at;
    let end = start;
    for (const part of tail) {
      kept.push(part);
      end += part.length;
      this.ends.push(end);
    }
    const head = start === this.text.length ? this.text : this.text.slice(0, start);
    this.text = head + tail.join('');
    return this.text;
  }
}

/**
 * A PrefixJoin of lines made from a list of (immutable) objects: the objects the list shares with
 * last time's, from the start, keep their lines without being looked at again; only the rest are
 * made (`line`) and joined.
 */
export class MappedJoin<K> {
  private keys: K[] = [];
  private readonly joined = new PrefixJoin();

  of(keys: readonly K[], line: (key: K) => string): string {
    const kept = this.keys;
    const limit = Math.min(keys.length, kept.length);
    let shared = 0;
    while (shared < limit && keys[shared] === kept[shared]) shared++;
    kept.length = shared;
    const tail: string[] = [];
    for (let i = shared; i < keys.length; i++) {
      kept.push(keys[i]);
      tail.push(line(keys[i]));
    }
    return this.joined.replaceFrom(shared, tail);
  }
}
