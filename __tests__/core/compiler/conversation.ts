import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ChipResolver } from '../../../src/core/context/resolver';
import type { ContextChip } from '../../../src/core/context/items';
import { PromptContextEngine } from '../../../src/core/engine/engine';
import { type TurnAssembly } from '../../../src/core/engine/turnAssembly';
import type { PromptFragment } from '../../../src/core/engine/types';
import { promptFragments } from '../../../src/core/systemPrompt';
import { advance, compile, type CompiledRequest } from '../../../src/core/compiler/messageCompiler';
import type { ProviderSession, ProviderTarget, SessionCapability } from '../../../src/core/compiler/session';
import { reReadLibraryNotes } from '../../../src/core/context/libraryNotes';
import { escapeContent } from '../../../src/core/engine/escape';
import { FsVault } from '../../../src/node/fsVault';
import { VAULT } from '../../helpers/paths';

/** A provider as the conversation loop sees it (ChatProvider.send reduced to what the compiler needs). */
export interface TurnSender {
  readonly capabilities: SessionCapability;
  readonly target: ProviderTarget;
  send(compiled: CompiledRequest): Promise<{ text: string; sessionId?: string }>;
}

export interface TurnStep {
  user: string;
  context: ContextChip[];
  /** Text of the dynamic L1 fragment this turn (e.g. the note open in the editor). */
  dynamic?: string;
}

export const NOTES = ['Queries/Comments.md', 'Queries/Limiting.md', 'Queries/Backlinks.md'];
/** A note's text as it appears inside its wrapper in a request. */
export const noteBody = (note: string) => escapeContent(readFileSync(path.join(VAULT, note), 'utf8'));

/** A three-turn scenario over the project's vault: a note per turn, the first one attached again on turn 3. */
export const SCENARIO: TurnStep[] = [
  { user: 'How do comments work in a query?', context: [{ kind: 'note', path: NOTES[0] }], dynamic: 'The open note is Queries/Comments.md.' },
  { user: 'And how do I limit the results?', context: [{ kind: 'note', path: NOTES[1] }], dynamic: 'The open note is Queries/Limiting.md.' },
  {
    user: 'Can backlinks be combined with comments?',
    context: [{ kind: 'note', path: NOTES[2] }, { kind: 'note', path: NOTES[0] }],
    dynamic: 'The open note is Queries/Backlinks.md.',
  },
];

export interface TurnRecord {
  assembly: TurnAssembly;
  compiled: CompiledRequest;
  reply?: string;
  error?: unknown;
}

/**
 * The conversation loop the plugin will run, reduced to its essentials: assemble (pure), compile,
 * send, and only on success advance the cursor and commit the turn. A failure changes nothing.
 */
export class TestConversation {
  readonly resolver: ChipResolver;
  engine = new PromptContextEngine();
  session: ProviderSession | null = null;
  staticFragments: PromptFragment[] = promptFragments();
  model: string;

  constructor(vaultDir = VAULT, model = 'claude-sonnet-4-5') {
    this.resolver = new ChipResolver(new FsVault(vaultDir));
    this.model = model;
  }

  async assemble(step: TurnStep): Promise<TurnAssembly> {
    const { items, problems } = await this.resolver.resolve(step.context);
    const current = await reReadLibraryNotes(this.resolver, this.engine.libraryNotes(), items);
    const fragments: PromptFragment[] = [
      ...this.staticFragments,
      ...(step.dynamic ? [{ id: 'active-note', lifecycle: 'dynamic' as const, text: step.dynamic }] : []),
    ];
    return this.engine.assemble({ userText: step.user, items, problems, fragments, model: this.model, current });
  }

  compile(assembly: TurnAssembly, sender: Pick<TurnSender, 'capabilities' | 'target'>): CompiledRequest {
    return compile({ assembly, capabilities: sender.capabilities, target: sender.target, session: this.session });
  }

  async turn(step: TurnStep, sender: TurnSender): Promise<TurnRecord> {
    const assembly = await this.assemble(step);
    const compiled = this.compile(assembly, sender);
    try {
      const result = await sender.send(compiled);
      this.session = advance(compiled, assembly, result);
      this.engine.commit(assembly, result.text);
      return { assembly, compiled, reply: result.text };
    } catch (error) {
      return { assembly, compiled, error };
    }
  }
}
