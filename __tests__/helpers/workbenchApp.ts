import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { App, TFile } from 'obsidian';
import { startWorkbenchServer } from '../../workbench/server';
import { openVault, type NodeApp } from '../../workbench/shim/node';
import { copyVault } from '../../workbench/vaultCopy';

/**
 * Obsidian's App for Node tests: the workbench's shim (workbench/shim/node.ts, what `obsidian`
 * resolves to under jest) over a throw-away copy of the one vault, served by the real workbench
 * server. The browser tests use the same shim with its DOM parts.
 */
export interface WorkbenchApp {
  app: NodeApp;
  vaultDir: string;
  close(): Promise<void>;
}

export async function startWorkbenchApp(): Promise<WorkbenchApp> {
  const vaultDir = copyVault();
  const server = await startWorkbenchServer({ vaultDir, providerUrl: null });
  try {
    const app = await openVault(server.url);
    return {
      app,
      vaultDir,
      close: async () => {
        await server.close();
        rmSync(dirname(vaultDir), { recursive: true, force: true });
      },
    };
  } catch (e) {
    await server.close();
    throw e;
  }
}

/** What a test sees of the vault: the calls made through the Vault API, and the files on disk. */
export interface VaultRecord {
  /** `createFolder <path>`, `create <path>`, `process <path>`, in call order. */
  readonly calls: string[];
  /** The vault folder on disk, by vault path. */
  readonly files: { get(path: string): string | undefined; set(path: string, text: string): void };
  /** Called inside vault.process() before it reads the note: lets a test simulate an edit racing a save. */
  beforeProcess: ((path: string) => void) | null;
}

/** The app with its Vault's writes and FileManager's trash recorded (the real calls still run). */
export function recordingApp(wb: WorkbenchApp): { app: App; vault: VaultRecord; trashed: string[] } {
  const { vault, fileManager } = wb.app;
  const record: VaultRecord = {
    calls: [],
    files: {
      get: (path) => {
        try {
          return readFileSync(join(wb.vaultDir, path), 'utf8');
        } catch {
          return undefined;
        }
      },
      set: (path, text) => writeFileSync(join(wb.vaultDir, path), text),
    },
    beforeProcess: null,
  };
  const createFolder = vault.createFolder.bind(vault);
  vault.createFolder = (path) => {
    record.calls.push(`createFolder ${path}`);
    return createFolder(path);
  };
  const create = vault.create.bind(vault);
  vault.create = (path, data, options) => {
    record.calls.push(`create ${path}`);
    return create(path, data, options);
  };
  const process = vault.process.bind(vault);
  vault.process = (file, fn, options) => {
    record.calls.push(`process ${file.path}`);
    record.beforeProcess?.(file.path);
    return process(file, fn, options);
  };
  const trashed: string[] = [];
  const trashFile = fileManager.trashFile.bind(fileManager);
  fileManager.trashFile = (file) => {
    trashed.push(file.path);
    return trashFile(file);
  };
  // The shim implements the parts of App that ObsidianChatStore uses; the type is Obsidian's.
  return { app: wb.app as unknown as App, vault: record, trashed };
}

export type { TFile };
