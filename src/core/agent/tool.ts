import type { z } from 'zod';
import type { ToolHost } from '../ports/toolHost';
import type { SourceCatalog } from './sourceCatalog';
import type { EditSession } from '../edits/editSession';

/** What a tool runs with: the host, the turn's stop signal, and the turn's numbered sources. */
export interface ToolContext {
  readonly host: ToolHost;
  readonly signal: AbortSignal;
  /** One per agent turn: every localSearch of the turn numbers its sources through it. */
  readonly sources: SourceCatalog;
  /** The write tools' session (issue 28): absent when the chat is read-only or the host cannot write. */
  readonly edits?: EditSession;
  /** The id of the tool call being answered (runToolCall sets it): a write tool's proposal takes it. */
  readonly callId?: string;
}

/**
 * One agent tool (issue 14): a name and a description the model reads, the zod schema of its
 * arguments (sent as JSON Schema, and used to validate what the model sends), and the function
 * that answers. `run` gets validated arguments and returns the text the model sees; a text starting
 * with `Error:` is reported as an error result. It may throw: runToolCall (toolbox.ts) turns that
 * into an error result too.
 */
export interface AgentTool<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<string>;
}

/**
 * A tool with its argument type inferred from its schema. The schema is given as a function and
 * built on first use: the tools are defined when the plugin loads, and their schemas (with their
 * descriptions) took several milliseconds of it, though only an agent turn reads them.
 */
export function defineTool<S extends z.ZodObject>(tool: Omit<AgentTool<S>, 'schema'> & { readonly schema: () => S }): AgentTool<S> {
  let schema: S | undefined;
  return {
    name: tool.name,
    description: tool.description,
    get schema(): S {
      return (schema ??= tool.schema());
    },
    run: (args, ctx) => tool.run(args, ctx),
  };
}

/** The prefix of every error text a tool gives back, so the model can tell a failure from a result. */
export const ERROR_PREFIX = 'Error:';

export function errorText(message: string): string {
  return `${ERROR_PREFIX} ${message}`;
}

/**
 * An error's message, for the model. Duck-typed: an error from another realm (Node's fetch seen
 * from a test's sandbox, an iframe) is not `instanceof Error` but has a message all the same.
 */
export function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return String(error);
}

/** The stop of a turn: what the loop catches to end quietly. */
export function abortError(): DOMException {
  return new DOMException('The reply was stopped.', 'AbortError');
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError();
}
