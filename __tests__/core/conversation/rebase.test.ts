import { rebaseOnSaved } from '../../../src/core/conversation/merge';
import { newConversation, type Conversation } from '../../../src/core/conversation/model';
import { addUserMessage, failTurn, interrupted, INTERRUPTED, resendTurn, setTitle, truncateFrom } from '../../../src/core/conversation/transitions';

const base = newConversation({ provider: 'p', model: 'm', id: 'c' }, { now: () => 1 });

function answered(c: Conversation, text: string, reply: string, at: number): Conversation {
  const { conversation, index } = addUserMessage(c, { text, at });
  const turns = [...conversation.turns];
  turns[index] = { ...turns[index], status: 'complete', reply, replyAt: at + 1 };
  return { ...conversation, turns };
}

describe('rebaseOnSaved (a save finished while the chat moved on)', () => {
  const sent = answered(base, 'one', 'r1', 10);
  const current = answered(sent, 'two', 'r2', 20);

  test('nothing merged: the chat as it is now', () => {
    expect(rebaseOnSaved(current, sent, sent)).toBe(current);
  });

  test('the chat did not move: the saved state is the state', () => {
    const saved = { ...sent, extra: { tags: ['x'] } };
    expect(rebaseOnSaved(sent, sent, saved)).toBe(saved);
  });

  test('the user’s edits to earlier turns, title, properties and intro move over; what the model got stays recorded', () => {
    const saved: Conversation = {
      ...sent,
      title: 'Mine',
      titleSource: 'user',
      extra: { tags: ['research'] },
      preamble: 'Intro\n',
      turns: [{ ...sent.turns[0], text: 'one, reworded', reply: 'r1, corrected' }],
    };
    const rebased = rebaseOnSaved(current, sent, saved);
    expect(rebased.turns.map((t) => [t.text, t.sent, t.reply])).toEqual([
      ['one, reworded', 'one', 'r1, corrected'],
      ['two', undefined, 'r2'],
    ]);
    expect(rebased).toEqual(expect.objectContaining({ title: 'Mine', titleSource: 'user', extra: { tags: ['research'] }, preamble: 'Intro\n' }));
  });

  test('an edit to a turn that was replaced meanwhile (regenerate) does not land on its replacement', () => {
    const regenerated = answered(truncateFrom(current, 0, 30), 'one', 'r1 again', 40);
    const saved: Conversation = { ...sent, turns: [{ ...sent.turns[0], reply: 'edited old reply' }] };
    expect(rebaseOnSaved(regenerated, sent, saved).turns[0].reply).toBe('r1 again');
  });

  test('the chat’s own newer title wins over an older saved one', () => {
    const renamed = setTitle(current, 'Renamed in the app', 'user', 50);
    const saved: Conversation = { ...sent, extra: { a: 1 } };
    expect(rebaseOnSaved(renamed, sent, saved).title).toBe('Renamed in the app');
  });
});

describe('transitions', () => {
  test('a failure keeps the words, the reason and the partial reply; a retry starts clean', () => {
    const { conversation, index } = addUserMessage(base, { text: 'hello', at: 5 });
    expect(conversation.turns[index].status).toBe('sending');
    const failed = failTurn(conversation, index, { status: 'stopped', error: 'Stopped.', partial: 'Hel', at: 6 });
    expect(failed.turns[index]).toEqual(expect.objectContaining({ status: 'stopped', text: 'hello', error: 'Stopped.', partial: 'Hel' }));
    const again = failTurn(failed, index, { status: 'failed', error: 'HTTP 500', at: 7 });
    expect(again.turns[index].partial).toBeUndefined();
    const retried = resendTurn(failed, index);
    expect(retried.turns[index]).toEqual(expect.objectContaining({ status: 'sending', text: 'hello' }));
    expect(retried.turns[index].error).toBeUndefined();
    expect(retried.turns[index].partial).toBeUndefined();
  });

  test('a chat saved mid-request reopens with that message not answered, ready to retry', () => {
    const { conversation } = addUserMessage(answered(base, 'one', 'r1', 2), { text: 'two', at: 5 });
    const reopened = interrupted(conversation);
    expect(reopened.turns.map((t) => [t.status, t.error])).toEqual([
      ['complete', undefined],
      ['failed', INTERRUPTED],
    ]);
    expect(interrupted(reopened)).toBe(reopened);
  });

  test('the first message names the chat unless the user named it', () => {
    expect(addUserMessage(base, { text: 'What is the plan?', at: 2 }).conversation.title).toBe('What is the plan?');
    const named = setTitle(base, 'Mine', 'user', 2);
    expect(addUserMessage(named, { text: 'What is the plan?', at: 3 }).conversation.title).toBe('Mine');
  });
});
