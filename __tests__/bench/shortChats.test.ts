import { shortChatsLine } from '../../bench/report/wholeTurn';
import { shortChatsOf } from '../../bench/wholeTurn/section';
import { shortChatTurns } from '../../bench/wholeTurn/worker';

/** A chat whose turns 4–10 take `ten` ms and 44–50 take `fifty` (CPU the same, times `cpu`). */
function chat(ten: number, fifty: number, cpu = 1) {
  const seven = (x: number) => Array.from({ length: 7 }, (_, i) => x + (i - 3) * 0.01);
  return { tenMs: seven(ten), fiftyMs: seven(fifty), tenCpuMs: seven(ten * cpu), fiftyCpuMs: seven(fifty * cpu) };
}

describe('whole-turn short chats (issue 30: turn 10 no slower than turn 50)', () => {
  test('a chat\'s turns 4–10 and 44–50 are taken from its per-turn figures', () => {
    const perTurnNextMs = Array.from({ length: 50 }, (_, i) => i + 1);
    const turns = shortChatTurns({ perTurnNextMs, perTurnNextCpuMs: perTurnNextMs.map((x) => x * 10) });
    expect(turns.tenMs).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(turns.fiftyMs).toEqual([44, 45, 46, 47, 48, 49, 50]);
    expect(turns.tenCpuMs).toEqual([40, 50, 60, 70, 80, 90, 100]);
    expect(turns.fiftyCpuMs[6]).toBe(500);
  });

  test('each chat\'s own ratio, the median over the chats with its quartiles, beside the pooled medians', () => {
    const perChat = [chat(1, 2), chat(2, 2), chat(3, 2), chat(0.9, 1, 2)];
    const pooled = { chats: 4, perChat, tenMs: perChat.flatMap((c) => c.tenMs), fiftyMs: perChat.flatMap((c) => c.fiftyMs), tenCpuMs: perChat.flatMap((c) => c.tenCpuMs), fiftyCpuMs: perChat.flatMap((c) => c.fiftyCpuMs) };
    const sc = shortChatsOf(pooled);
    expect(sc).not.toBeNull();
    if (!sc?.perChat) throw new Error('no per-chat figures');
    // Ratios 0.5, 1, 1.5, 0.9: median 0.95, nearest-rank quartiles 0.5 and 1.
    expect(sc.perChat.ratio.median).toBeCloseTo(0.95, 6);
    expect(sc.perChat.ratio.q1).toBeCloseTo(0.5, 6);
    expect(sc.perChat.ratio.q3).toBeCloseTo(1, 6);
    expect(sc.perChat.noSlower).toBe(3);
    expect(sc.perChat.cpuRatio.median).toBeCloseTo(0.95, 6);
    expect(sc.samples).toBe(28);
    const line = shortChatsLine('cached', sc);
    expect(line).toContain('pooled (28 turns each)');
    expect(line).toContain('over the chats: 0.95× (quartiles 0.50–1.00×) in wall time (3 of 4 chats no slower)');
  });

  test('a run from before the per-chat figures keeps its pooled line', () => {
    const c = chat(1, 2);
    const sc = shortChatsOf({ chats: 1, ...c });
    expect(sc?.perChat).toBeUndefined();
    expect(sc ? shortChatsLine('cached', sc) : '').toContain('44–50 of every chat pooled (7 turns each): 1.00 ms against 2.00 ms, 0.50× ✓ in wall time');
    expect(shortChatsOf({ chats: 0, tenMs: [], fiftyMs: [], tenCpuMs: [], fiftyCpuMs: [] })).toBeNull();
  });
});
