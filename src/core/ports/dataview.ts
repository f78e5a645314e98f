/**
 * The engine's view of the Dataview plugin (issue 31), when it is enabled: a `dataview` query
 * evaluated by Dataview itself, its result as markdown. Obsidian's side is src/obsidian/dataviewApi.ts
 * (Dataview's `api.queryMarkdown`); jest and the workbench use a stand-in over their vault.
 * Dataview offers no markdown result for `dataviewjs` blocks, so none is asked for: Strata never
 * runs a block's JavaScript itself.
 */
export interface DataviewPort {
  /** The query's result as markdown, as Dataview renders it for the note at `origin`. */
  queryMarkdown(query: string, origin: string): Promise<DataviewAnswer>;
}

export type DataviewAnswer = { readonly ok: true; readonly markdown: string } | { readonly ok: false; readonly error: string };
