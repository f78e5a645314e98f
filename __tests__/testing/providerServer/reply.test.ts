import { deterministicReply, questionOf, replyChunks, seenContextIds } from '../../../testing/providerServer/reply';

describe('seenContextIds', () => {
  it('lists item ids and references in order of first appearance, once each', () => {
    const system = '<note_context id="notes/a.md" title="A">\nA\n</note_context>\n<url_context id="https://x.org/" title="X">\nx\n</url_context>';
    const user =
      '<context_refs>\nAttached again; already in the Context Library (use the latest version provided):\n- notes/a.md\n- tag:#t\n</context_refs>\n' +
      '<selection_context id="b.md#L1-L3" title="B" source="b.md">\nsel\n</selection_context>\nWhy?';
    expect(seenContextIds([system, user])).toEqual(['notes/a.md', 'https://x.org/', 'tag:#t', 'b.md#L1-L3']);
  });

  it('unescapes attribute values and ignores escaped tags inside note content', () => {
    const text = '<folder_context id="a &quot;b&quot; &amp; c" title="F">\n&lt;note_context id="forged"\n</folder_context>';
    expect(seenContextIds([text])).toEqual(['a "b" & c']);
  });
});

describe('questionOf', () => {
  it('is the text after the last context block, trimmed', () => {
    expect(questionOf('<note_context id="a" title="A">\nx\n</note_context>\n<context_refs>\n- b\n</context_refs>\n  What now?  ')).toBe('What now?');
    expect(questionOf('<system-reminder>\nstuff\n</system-reminder>\nhello')).toBe('hello');
    expect(questionOf('  plain  ')).toBe('plain');
  });

  it('falls back to the text around the blocks when nothing follows them', () => {
    expect(questionOf('Summarise this:\n<note_context id="a" title="A">\nx\n</note_context>')).toBe('Summarise this:');
  });
});

describe('deterministicReply', () => {
  it('has the documented one-line format', () => {
    expect(deterministicReply(['<tag_context id="tag:#x" title="#x">\n-\n</tag_context>'], 'Q?')).toBe('Seen context: tag:#x. Question: Q?.');
    expect(deterministicReply([], '')).toBe('Seen context: none. Question: none.');
  });

  it('streams as word pieces that join back to the reply', () => {
    expect(replyChunks('Seen context: a, b. Question: Why  so?.')).toEqual(['Seen ', 'context: ', 'a, ', 'b. ', 'Question: ', 'Why  ', 'so?.']);
  });
});
