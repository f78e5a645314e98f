import { portOfDataviewApi } from '../../src/obsidian/dataviewApi';
import type { VaultReader } from '../../src/core/ports/vault';
import { dataviewStandIn } from './standIn';

/** A vault with the stand-in Dataview (testing/dataview/standIn.ts) answering its queries over its own files, through Strata's real port. */
export function withDataview<V extends VaultReader>(vault: V): V & { readonly dataview: NonNullable<VaultReader['dataview']> } {
  const api = dataviewStandIn({ list: () => vault.listMarkdown(), read: (p) => vault.read(p) });
  const dataview = portOfDataviewApi(() => api);
  return Object.assign(Object.create(vault) as V, { dataview });
}
