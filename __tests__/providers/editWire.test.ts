import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedRequest, ProviderServer } from '../../testing/providerServer';
import type { ProposalReviewer } from '../../src/core/edits/proposal';
import { ChatController } from '../../src/core/chat/chatController';
import { FsVault } from '../../src/node/fsVault';
import { FsNoteWriter } from '../../src/node/fsNoteWriter';
import { fsToolHost } from '../../src/node/toolHost';
import { makeController, settingsFor } from '../core/chat/controllerHarness';
import { expectGolden } from '../helpers/golden';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

/**
 * The write tools over the real wire (issue 28): the local provider server records what each
 * LangChain client sent for an agent turn that edits a note (the read and write tools declared, the
 * editNote call, its outcome as the tool result, the answer), compared exactly with a checked-in
 * golden payload per API. Regenerate deliberately with UPDATE_GOLDEN=1 npx jest __tests__/providers/editWire
 * and review the diff.
 */
let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

let root = '';
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'strata-edit-wire-'));
  mkdirSync(path.join(root, 'Notes'));
  writeFileSync(path.join(root, 'Notes', 'Plan.md'), '# Plan\n\n- grow tomatoes\n- build a greenhouse\n\nBudget: 200 euros.\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const acceptFirst: ProposalReviewer = {
  review: (p) => Promise.resolve({ decisions: p.hunks.map((h, i) => ({ hunkId: h.id, action: i === 0 ? ('accept' as const) : ('reject' as const) })), reason: 'not the budget' }),
};

function wire(requests: readonly RecordedRequest[]): unknown[] {
  return requests.filter((r) => !r.path.includes('count_tokens')).map((r) => ({ api: r.api, path: r.path, body: r.body }));
}

const EDIT = JSON.stringify({
  path: 'Notes/Plan.md',
  edits: [
    { search: '- build a greenhouse', replace: '- build a greenhouse\n- add a rain barrel' },
    { search: 'Budget: 200 euros.', replace: 'Budget: 300 euros.' },
  ],
});

describe.each(['openai', 'openai-responses', 'anthropic'] as const)('write tools over %s', (kind) => {
  it('declares the write tools with the read tools and sends the outcome of an edit as its tool result (golden payload)', async () => {
    const vault = new FsVault(root);
    const writer = new FsNoteWriter(root, { changed: () => vault.forgetListing() });
    const h = makeController({ ...settingsFor(server.url, kind), defaultMode: 'agent' }, { vault, ids: ['chat-a'] });
    const controller = new ChatController({ ...h.deps, toolHost: () => fsToolHost({ vault, search: null, hidden: ['Strata'] }), writer: () => writer, reviewer: () => acceptFirst });
    await controller.send(`[[tool editNote ${EDIT}]]\nAdd a rain barrel and raise the budget.`);
    expect(controller.state.conversation.turns[0].status).toBe('complete');
    expect(readFileSync(path.join(root, 'Notes', 'Plan.md'), 'utf8')).toBe('# Plan\n\n- grow tomatoes\n- build a greenhouse\n- add a rain barrel\n\nBudget: 200 euros.\n');
    expectGolden(`wire-edits-${kind}`, wire(server.requests));
  });
});
