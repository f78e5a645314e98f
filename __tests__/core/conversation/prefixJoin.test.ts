import fc from 'fast-check';
import { PrefixJoin } from '../../../src/core/conversation/prefixJoin';
import { RecentByKey } from '../../../src/core/memo';

/** A save joins a note's lists on from the last save's: whatever the lists did, the text is their plain join. */
describe('PrefixJoin', () => {
  const part = fc.constantFrom('a', 'b', 'line\n', '', '> {"turn":1}\n', 'é·…');
  const change = fc.oneof(
    fc.record({ type: fc.constant('grow' as const), parts: fc.array(part, { maxLength: 4 }) }),
    fc.record({ type: fc.constant('edit' as const), at: fc.nat(30), part }),
    fc.record({ type: fc.constant('drop' as const), count: fc.nat(3) }),
    fc.record({ type: fc.constant('same' as const) }),
  );

  it('gives parts.join("") after any growth, edit, drop or repeat', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 25 }), (changes) => {
        const join = new PrefixJoin();
        let parts: string[] = [];
        for (const c of changes) {
          if (c.type === 'grow') parts = [...parts, ...c.parts];
          else if (c.type === 'edit' && parts.length > 0) parts = parts.map((p, i) => (i === c.at % parts.length ? `${c.part}x` : p));
          else if (c.type === 'drop') parts = parts.slice(0, Math.max(0, parts.length - c.count));
          expect(join.join(parts)).toBe(parts.join(''));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps joiners for the chats used lately only (RecentByKey)', () => {
    const joins = new RecentByKey(() => ({}), 2);
    const a = joins.for('a');
    joins.for('b');
    expect(joins.for('a')).toBe(a);
    joins.for('c'); // b is the least recent: dropped
    expect(joins.for('a')).toBe(a);
    const b = joins.for('b');
    expect(joins.for('b')).toBe(b);
  });
});
