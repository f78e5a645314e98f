import { summaryMessages, transcriptOf, type Summarizer, type SummaryInput, type SummaryOutput } from '../../src/core/budget/summarizer';
import { countMessagesTokens, type TokenCounter } from '../../src/core/tokens/tokenCounter';

/** What the summaries of one replay would have cost a model: calls, and tokens in and out. */
export interface SummaryCost {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Wraps a summarizer and meters each call as a summary model would bill it: input = the summary
 * request (summaryMessages: instructions, previous summary, the dropped turns' transcript, the
 * notes), output = the summary text. The offline extractive summarizer reports zero usage; this
 * says what the same compactions cost with a model (one call each, no chunking).
 */
export class MeteredSummarizer implements Summarizer {
  private cost: SummaryCost = { calls: 0, inputTokens: 0, outputTokens: 0 };

  constructor(
    private readonly inner: Summarizer,
    private readonly counter: TokenCounter,
  ) {}

  async summarize(input: SummaryInput, signal: AbortSignal): Promise<SummaryOutput> {
    const out = await this.inner.summarize(input, signal);
    const request = summaryMessages(input.previous, input.turns.map(transcriptOf).join('\n\n'), input.notes, input.maxTokens);
    this.cost = {
      calls: this.cost.calls + 1,
      inputTokens: this.cost.inputTokens + countMessagesTokens(this.counter, request.map((m) => m.content)),
      outputTokens: this.cost.outputTokens + this.counter.count(out.text),
    };
    return out;
  }

  get total(): SummaryCost {
    return this.cost;
  }
}
