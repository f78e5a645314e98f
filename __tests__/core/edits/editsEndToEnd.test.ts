/**
 * Issue 28 end to end through the controller: a real LangChain client with the write tools bound, over
 * real HTTP to the local provider server (the write-tool calls scripted by `[[tool …]]` lines), the
 * real tools over a vault folder on disk, the real chat-note archive. The agent proposes an edit with
 * two hunks; a scripted reviewer accepts one and rejects the other with a reason; the note on disk
 * gets exactly the accepted hunk; the model reads the outcome. The chat is saved and reopened, and
 * the edit is undone from the reopened chat: the note's bytes are back.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import type { EditProposal, ProposalReviewer, ReviewOutcome } from '../../../src/core/edits/proposal';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { FsVault } from '../../../src/node/fsVault';
import { FsNoteWriter } from '../../../src/node/fsNoteWriter';
import { fsToolHost } from '../../../src/node/toolHost';
import type { ProviderServer } from '../../../testing/providerServer';
import { makeController, settingsFor } from '../chat/controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const PLAN = ['# Plan', '', '## Goals', '', '- grow tomatoes', '- build a greenhouse', '', '## Budget', '', 'About 200 euros.', ''].join('\n');

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strata-edits-'));
  mkdirSync(path.join(root, 'Projects'));
  writeFileSync(path.join(root, 'Projects', 'Plan.md'), PLAN);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A reviewer that decides by a script and remembers what it was shown. */
function scriptedReviewer(decide: (p: EditProposal) => ReviewOutcome): ProposalReviewer & { seen: EditProposal[] } {
  const seen: EditProposal[] = [];
  return {
    seen,
    review(proposal) {
      seen.push(proposal);
      return Promise.resolve(decide(proposal));
    },
  };
}

function controllerFor(settings: StrataSettings, reviewer: ProposalReviewer, files?: ReturnType<typeof makeController>['files']) {
  const vault = new FsVault(root);
  const h = makeController(settings, { vault, ...(files ? { files } : {}) });
  const writer = new FsNoteWriter(root, { changed: () => vault.forgetListing() });
  const deps = { ...h.deps, toolHost: () => fsToolHost({ vault, search: null, hidden: ['Strata'] }), writer: () => writer, reviewer: () => reviewer };
  return { ...h, controller: new ChatController(deps), deps };
}

const EDIT = JSON.stringify({
  path: 'Projects/Plan.md',
  edits: [
    { search: '- build a greenhouse', replace: '- build a small greenhouse\n- add a rain barrel' },
    { search: 'About 200 euros.', replace: 'About 350 euros.' },
  ],
});

const note = () => readFileSync(path.join(root, 'Projects', 'Plan.md'), 'utf8');

test('the agent proposes, the user accepts one hunk and rejects one, the note gets exactly that; reopened, the edit is undone to the byte', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'agent' };
  const reviewer = scriptedReviewer((p) => ({
    decisions: p.hunks.map((h) => ({ hunkId: h.id, action: h.baseLines.join('').includes('euros') ? ('reject' as const) : ('accept' as const) })),
    reason: 'keep the budget as it is',
  }));
  const { controller, files, deps } = controllerFor(settings, reviewer);
  await controller.send(`[[tool editNote ${EDIT}]]\nAdd a rain barrel to my plan and raise the budget.`);

  const turn = controller.state.conversation.turns[0];
  expect(turn.status).toBe('complete');
  // The write tools were declared with the read tools.
  const request = server.requests.find((r) => r.path.includes('chat/completions'));
  const declared = ((request?.body as { tools: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
  expect(declared).toEqual(expect.arrayContaining(['createNote', 'editNote', 'appendToNote', 'setProperties', 'moveNote', 'readNote']));

  expect(reviewer.seen).toHaveLength(1);
  expect(reviewer.seen[0].hunks).toHaveLength(2);
  expect(note()).toBe(PLAN.replace('- build a greenhouse', '- build a small greenhouse\n- add a rain barrel'));
  // The model was told: partly applied, which lines, and the user's reason.
  const result = turn.tools.find((t) => t.name === 'editNote')?.output ?? '';
  expect(result).toContain('Partly applied');
  expect(result).toContain('keep the budget as it is');
  // The applied edit is recorded in the chat.
  expect(controller.edits.applied()).toHaveLength(1);
  expect(controller.edits.pending()).toEqual([]);
  const proposalId = controller.edits.applied()[0].proposalId;

  // Saved and reopened: the edit is still there and undoes to the exact previous bytes.
  await controller.flush();
  const reopened = new ChatController(deps);
  await reopened.open(controller.state.conversation.id);
  expect(reopened.edits.applied().map((e) => e.proposalId)).toEqual([proposalId]);
  expect(await reopened.edits.undo(proposalId)).toContain('Undone');
  expect(note()).toBe(PLAN);
  expect(reopened.edits.applied()[0].undone).toBe(true);
  expect(await reopened.edits.undo(proposalId)).toContain('already undone');
  void files;
});

test('read-only: no write tools are declared, and their definitions cost nothing', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'agent', agentWritePolicy: { mode: 'read-only', folders: [] } };
  const { controller } = controllerFor(settings, scriptedReviewer(() => ({ decisions: [] })));
  await controller.send('What is in my plan?');
  const request = server.requests.find((r) => r.path.includes('chat/completions'));
  const declared = ((request?.body as { tools: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
  expect(declared).not.toContain('editNote');
  expect(declared).toContain('readNote');
});

test('apply without asking inside a chosen folder: createNote writes at once; a create never overwrites', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'agent', agentWritePolicy: { mode: 'auto', folders: ['Projects'] } };
  const reviewer = scriptedReviewer(() => ({ decisions: [] }));
  const { controller } = controllerFor(settings, reviewer);
  const create = JSON.stringify({ path: 'Projects/Barrel', content: '# Rain barrel\n' });
  const again = JSON.stringify({ path: 'Projects/Plan.md', content: 'gone' });
  await controller.send(`[[tool createNote ${create}]]\n[[tool createNote ${again}]]\nMake a note for the barrel.`);
  expect(reviewer.seen).toHaveLength(0);
  expect(readFileSync(path.join(root, 'Projects', 'Barrel.md'), 'utf8')).toBe('# Rain barrel\n');
  expect(note()).toBe(PLAN);
  const outputs = controller.state.conversation.turns[0].tools.map((t) => t.output);
  expect(outputs[0]).toContain('Applied: Create Projects/Barrel.md');
  expect(outputs[1]).toContain('already exists');
  // Undo of a create: the untouched note goes to the trash.
  const id = controller.edits.applied()[0].proposalId;
  expect(await controller.edits.undo(id)).toContain('trash');
  expect(existsSync(path.join(root, 'Projects', 'Barrel.md'))).toBe(false);
});

test('the agent never writes into a chat folder, a hidden folder or outside the vault', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'agent', agentWritePolicy: { mode: 'auto', folders: [''] } };
  const { controller } = controllerFor(settings, scriptedReviewer(() => ({ decisions: [] })));
  const calls = ['Strata/Chats/x.md', '.trash/x.md', '../x.md'].map((p) => `[[tool createNote ${JSON.stringify({ path: p, content: 'x' })}]]`);
  await controller.send(`${calls.join('\n')}\nTry.`);
  const outputs = controller.state.conversation.turns[0].tools.map((t) => t.output);
  expect(outputs[0]).toContain('chats are saved');
  expect(outputs[1]).toContain('hidden');
  expect(outputs[2]).toContain('leaves the vault');
  expect(existsSync(path.join(root, '..', 'x.md'))).toBe(false);
});

test('edits of two turns keep distinct ids though the provider numbers its calls per turn; the older one undoes as a reverse proposal once the note changed', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'agent', agentWritePolicy: { mode: 'auto', folders: ['Projects'] } };
  const reviewer = scriptedReviewer((p) => ({ decisions: p.hunks.map((h) => ({ hunkId: h.id, action: 'accept' as const })) }));
  const { controller } = controllerFor(settings, reviewer);
  const first = JSON.stringify({ path: 'Projects/Plan.md', edits: [{ search: '- grow tomatoes', replace: '- grow tomatoes and basil' }] });
  const second = JSON.stringify({ path: 'Projects/Plan.md', edits: [{ search: 'About 200 euros.', replace: 'About 250 euros.' }] });
  await controller.send(`[[tool editNote ${first}]]\nAdd basil.`);
  await controller.send(`[[tool editNote ${second}]]\nRaise the budget.`);
  const ids = controller.edits.applied().map((e) => e.proposalId);
  expect(ids).toHaveLength(2);
  expect(new Set(ids).size).toBe(2);
  // The first edit, undone after the second changed the note: a reverse proposal (reviewed), the second edit kept.
  expect(await controller.edits.undo(ids[0])).toContain('Applied');
  expect(reviewer.seen.at(-1)?.id).toBe(`undo-${ids[0]}`);
  expect(note()).toBe(PLAN.replace('About 200 euros.', 'About 250 euros.'));
});

test('a proposal the user makes from the chat (Apply to note) is written as reviewed and undone like the agent\'s', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'chat' };
  const { controller } = controllerFor(settings, scriptedReviewer(() => ({ decisions: [] })));
  const { proposalOf } = await import('../../../src/core/edits/lineDiff');
  const proposal = proposalOf({ id: 'apply-1', kind: 'edit', path: 'Projects/Plan.md', baseText: PLAN, proposedText: PLAN.replace('# Plan', '# Garden plan') });
  const result = await controller.edits.apply(proposal, { decisions: [{ hunkId: 'h1', action: 'accept' }] });
  expect(result.status).toBe('applied');
  expect(note()).toBe(PLAN.replace('# Plan', '# Garden plan'));
  expect(await controller.edits.undo('apply-1')).toContain('Undone');
  expect(note()).toBe(PLAN);
});

test('stopping the turn while a proposal waits for review writes nothing and leaves nothing waiting', async () => {
  const settings: StrataSettings = { ...settingsFor(server.url, 'openai'), defaultMode: 'agent' };
  let stop: () => void = () => undefined;
  const reviewer: ProposalReviewer = {
    review: (_p, signal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError')));
        stop();
      }),
  };
  const { controller } = controllerFor(settings, reviewer);
  stop = () => {
    expect(controller.edits.pending()).toHaveLength(1);
    controller.stop();
  };
  await controller.send(`[[tool editNote ${EDIT}]]\nChange it.`);
  expect(controller.state.conversation.turns[0].status).toBe('stopped');
  expect(controller.edits.pending()).toEqual([]);
  expect(controller.edits.applied()).toEqual([]);
  expect(note()).toBe(PLAN);
});
