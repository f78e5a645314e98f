import type { ContextChip } from '../context/items';
import type { ChipResolver } from '../context/resolver';
import { advance } from '../compiler/messageCompiler';
import type { CompactionEvent } from '../conversation/records/compaction';
import type { LiveChat } from '../conversation/liveChat';
import { failTurn, resendTurn, setSession } from '../conversation/transitions';
import type { ChatMode, StrataSettings } from '../settings/settings';
import type { ProviderFactory } from '../ports/providerFactory';
import type { ToolHost } from '../ports/toolHost';
import type { EditSession } from '../edits/editSession';
import type { VaultSearch } from '../search/types';
import type { Usage } from '../usage';
import { AgentProgress, type LiveCall } from '../agent/progress';
import type { LoopEvent } from '../agent/loop';
import { ChatActivity } from './activity';
import { isAbort, isSessionInvalid, userFacingError } from './errors';
import { runTurnPipeline, type TurnPipelineDeps } from './turnPipeline';

/** What one turn needs from its host, read when it starts. */
export interface RunDeps {
  readonly settings: StrataSettings;
  readonly resolver: ChipResolver;
  readonly providers: ProviderFactory;
  readonly now: () => number;
  readonly costOf?: (model: string, usage: Usage) => number | null;
  /** The message's chips with the text of web pages attached with `@` (a turn keeps only their address). */
  readonly chips: readonly ContextChip[];
  readonly planning: NonNullable<TurnPipelineDeps['planning']>;
  /** Vault QA's search; null while the index is not ready. */
  readonly search: VaultSearch | null;
  /** The Agent mode's tools, scoped to the chat's project; absent: no Agent mode. */
  readonly toolHost?: ToolHost;
  /** The write tools' session (issue 28), by the chat's write policy; absent: the agent only reads. */
  readonly edits?: EditSession;
  /** A compaction was applied to the chat's engine: the host records it (and saves) even if the request then fails. */
  readonly onCompacted: (event: CompactionEvent) => void;
}

/**
 * One turn in flight: it owns its abort, the text streamed so far, the retry it waits for, the
 * agent's calls so far and whether it is condensing, and tells its subscribers (the controller, for
 * the view) as they change. It runs the turn pipeline on its chat and settles there: answered (the
 * conversation and the engine commit together) or failed/stopped (the user's message kept, marked,
 * with what had streamed). Its chat may stop being the chat shown while it runs.
 */
export class TurnRun extends ChatActivity {
  private readonly progress = new AgentProgress();
  private partial = '';

  /** The turn at `index` of `chat` is sent (again): it waits for its reply, without the last attempt's error. */
  constructor(
    readonly chat: LiveChat,
    readonly index: number,
  ) {
    super(chat.id);
    chat.update((c) => resendTurn(c, index));
    this.streamingText = '';
  }

  override get agentCalls(): readonly LiveCall[] {
    return this.progress.live;
  }

  /** Run it to the end. Never throws: the outcome is in the chat; true when the turn was answered. */
  async run(deps: RunDeps): Promise<boolean> {
    const chat = this.chat;
    try {
      const settings = deps.settings;
      chat.engine.setRendering(settings.rendering);
      const c = chat.conversation;
      const turn = c.turns[this.index];
      const { assembly, compiled, result, search, agent, plan } = await runTurnPipeline(
        {
          chatId: c.id,
          providerId: c.provider,
          model: c.model,
          mode: c.mode as ChatMode,
          ...(c.project ? { project: c.project } : {}),
          userText: turn.sent ?? turn.text,
          chips: deps.chips,
          session: c.session,
          ...(c.plan ? { plan: c.plan } : {}),
        },
        chat.engine,
        this.pipelineDeps(deps),
      );
      chat.commit(this.index, {
        assembly,
        reply: result.text,
        replyAt: deps.now(),
        provider: c.provider,
        compile: { mode: compiled.mode, reason: `${compiled.reason.code}: ${compiled.reason.detail}` },
        usage: result.usage,
        cost: deps.costOf ? deps.costOf(c.model, result.usage) : null,
        session: advance(compiled, assembly, result),
        ...(search ? { search } : {}),
        ...(agent ? { agent } : {}),
        ...(plan ? { plan } : {}),
      });
      return true;
    } catch (error) {
      this.fail(error, deps.now());
      return false;
    }
  }

  /**
   * The turn fails before its pipeline starts (what it needs could not be had: the tools' host, the
   * search): the words stay, marked failed with the reason, like any failure.
   */
  fail(error: unknown, at: number): void {
    const stopped = isAbort(error, this.signal);
    // The provider forgot the session (expired Responses id, Claude Code session gone): the retry starts a new one, in full.
    const sessionLost = !stopped && isSessionInvalid(error);
    const steps = this.progress.steps;
    this.chat.update((c) =>
      failTurn(sessionLost ? setSession(c, null) : c, this.index, {
        status: stopped ? 'stopped' : 'failed',
        error: stopped ? 'Stopped. Your message is kept: retry to send it again.' : `${userFacingError(error)}${sessionLost ? ' Retry sends the whole conversation again.' : ''}`,
        ...(this.partial ? { partial: this.partial } : {}),
        ...(steps.length > 0 ? { agent: { stop: 'interrupted' as const, steps } } : {}),
        at,
      }),
    );
  }

  /** The pipeline's collaborators, with this run's callbacks: they update its status and tell the subscribers. */
  private pipelineDeps(deps: RunDeps): TurnPipelineDeps {
    const signal = this.signal;
    return {
      resolver: deps.resolver,
      providers: deps.providers,
      settings: deps.settings,
      signal,
      planning: deps.planning,
      vaultQa: { search: deps.search, cache: this.chat.rewrites, ...(deps.costOf ? { costOf: deps.costOf } : {}) },
      ...(deps.toolHost
        ? {
            agent: {
              host: deps.toolHost,
              ...(deps.edits ? { edits: deps.edits } : {}),
              now: deps.now,
              onEvent: (event: LoopEvent) => {
                this.progress.apply(event);
                if (!signal.aborted) this.emit();
              },
              // Text a model call streamed before its tool calls is kept with its step; the stream restarts.
              onStepStart: (step: number) => {
                if (step === 1 || signal.aborted) return;
                this.partial = '';
                this.streamingText = '';
                this.emit('stream');
              },
            },
          }
        : {}),
      onAssembled: (assembly) => {
        this.chat.lastAssembly = assembly;
        this.condensing = false;
        this.emit();
      },
      onCondensing: () => {
        this.condensing = true;
        this.emit();
      },
      onCompacted: deps.onCompacted,
      onRetry: (notice) => {
        if (signal.aborted) return;
        this.retry = notice;
        this.emit();
      },
      onToken: (delta) => {
        if (signal.aborted) return;
        if (this.retry) {
          this.retry = null;
          this.emit();
        }
        this.partial += delta;
        this.streamingText = this.partial;
        this.emit('stream');
      },
    };
  }
}
