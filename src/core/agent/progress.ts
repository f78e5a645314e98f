import type { LoopEvent } from './loop';
import type { CallRecord, StepRecord } from '../conversation/records/agent';

/** One tool call as the view shows it while the loop runs: running until its result is in. */
export interface LiveCall {
  readonly step: number;
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Set once finished. */
  readonly result?: CallRecord;
}

/**
 * What an agent turn has done so far: the calls (live, for the view) and the finished model calls
 * (kept on the turn if it then fails or is stopped, so nothing done is lost from sight).
 */
export class AgentProgress {
  private calls: LiveCall[] = [];
  private finished: StepRecord[] = [];

  apply(event: LoopEvent): void {
    if (event.type === 'call-started') {
      this.calls = [...this.calls, { step: event.step, id: event.call.id, name: event.call.name, args: event.call.args }];
    } else if (event.type === 'call-finished') {
      this.calls = this.calls.map((c) => (c.step === event.step && c.id === event.call.id ? { ...c, result: event.call } : c));
    } else {
      this.finished = [...this.finished, event.record];
    }
  }

  /** A fresh array on every change (the view compares by identity). */
  get live(): readonly LiveCall[] {
    return this.calls;
  }

  /** Model calls that completed, with their tool calls. */
  get steps(): readonly StepRecord[] {
    return this.finished;
  }
}
