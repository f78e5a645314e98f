/** The composer belongs to the chat shown: each chat's draft is put aside and given back (composerDrafts.ts). */
import { ComposerDrafts, EMPTY_DRAFT, type ComposerDraft } from '../../../src/core/chat/composerDrafts';

const draftA: ComposerDraft = { text: 'half a question for a', chips: [{ kind: 'note', path: 'A.md' }], activeNote: { path: 'Open.md', on: false } };

test('+ shows an empty composer; going back gives the chat its draft', () => {
  const drafts = new ComposerDrafts('a');
  expect(drafts.follow('a', false, () => draftA)).toBeNull();
  expect(drafts.follow('b', false, () => draftA)).toEqual(EMPTY_DRAFT);
  expect(drafts.follow('b', false, () => EMPTY_DRAFT)).toBeNull();
  expect(drafts.follow('a', false, () => ({ ...EMPTY_DRAFT, text: 'for b' }))).toEqual(draftA);
  expect(drafts.follow('b', false, () => EMPTY_DRAFT)).toEqual({ ...EMPTY_DRAFT, text: 'for b' });
});

test('while a chat opens the composer belongs to none; the opened chat gets its own draft, a failed open gives the old one back', () => {
  const drafts = new ComposerDrafts('a');
  expect(drafts.follow('a', true, () => draftA)).toEqual(EMPTY_DRAFT);
  // Typing is impossible while it opens; the chat shown is still a until b is loaded.
  expect(drafts.follow('a', true, () => EMPTY_DRAFT)).toBeNull();
  expect(drafts.follow('b', false, () => EMPTY_DRAFT)).toEqual(EMPTY_DRAFT);
  expect(drafts.follow('b', true, () => ({ ...EMPTY_DRAFT, text: 'b' }))).toEqual(EMPTY_DRAFT);
  expect(drafts.follow('b', false, () => EMPTY_DRAFT)).toEqual({ ...EMPTY_DRAFT, text: 'b' }); // opening a failed: b again
});

test('a chat can be given the draft it opens with (an imported chat leaves its source note out)', () => {
  const drafts = new ComposerDrafts('a');
  const imported: ComposerDraft = { text: '', chips: [], activeNote: { path: 'copilot/Chat.md', on: false } };
  drafts.prepare('imported', imported);
  drafts.follow('a', true, () => EMPTY_DRAFT);
  expect(drafts.follow('imported', false, () => EMPTY_DRAFT)).toEqual(imported);
});
