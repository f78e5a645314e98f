/**
 * A minimal, tolerant stand-in for the `obsidian` module, for loading main.js in Node. Known pieces
 * behave plausibly (Plugin's register and add methods, loadData, app.vault/workspace/secretStorage);
 * anything else is a no-op that returns another tolerant value, so a growing plugin still loads.
 * Nothing here is thenable by accident (awaiting a stub must not hang).
 */

type AnyFn = (...args: unknown[]) => unknown;

/** Counts what onload registered, so the benchmark can say the plugin really started. */
export interface ShimStats {
  commands: number;
  views: number;
  settingTabs: number;
  ribbonIcons: number;
  events: number;
  notices: number;
  unknownAccesses: Set<string>;
}

export function newStats(): ShimStats {
  return { commands: 0, views: 0, settingTabs: 0, ribbonIcons: 0, events: 0, notices: 0, unknownAccesses: new Set() };
}

/** A callable, constructible value where every property is another tolerant value. */
export function tolerant(label: string, stats?: ShimStats): unknown {
  const target = function tolerantStub() {
    /* no-op */
  };
  return new Proxy(target, {
    get(t, prop) {
      if (prop === 'then') return undefined;
      if (prop === 'prototype') return Reflect.get(t, prop) as unknown;
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator) return function* empty() {
        /* nothing */
      };
      if (typeof prop === 'symbol') return undefined;
      if (prop === 'toString' || prop === 'valueOf') return () => '';
      stats?.unknownAccesses.add(`${label}.${prop}`);
      return tolerant(`${label}.${prop}`, stats);
    },
    set: () => true,
    apply: () => tolerant(`${label}()`, stats),
    construct: () => tolerant(`new ${label}`, stats) as object,
  });
}

/** An object with the given members; any other property is a tolerant value. */
function lenient<T extends object>(label: string, members: T, stats: ShimStats): T {
  return new Proxy(members, {
    get(t, prop, receiver) {
      if (prop in t || typeof prop === 'symbol' || prop === 'then') return Reflect.get(t, prop, receiver) as unknown;
      stats.unknownAccesses.add(`${label}.${prop}`);
      return tolerant(`${label}.${prop}`, stats);
    },
  });
}

/** A base class whose instances answer unknown members with tolerant values (for subclasses like ItemView). */
function lenientClass(label: string, stats: ShimStats): new (...args: unknown[]) => object {
  return class {
    constructor(...args: unknown[]) {
      void args;
      return new Proxy(this, {
        get(t, prop, receiver) {
          if (prop in t || typeof prop === 'symbol' || prop === 'then') return Reflect.get(t, prop, receiver) as unknown;
          stats.unknownAccesses.add(`${label}#${String(prop)}`);
          return tolerant(`${label}#${String(prop)}`, stats);
        },
      });
    }
  };
}

export function makeApp(stats: ShimStats): unknown {
  const eventRef = () => ({});
  const vault = lenient(
    'app.vault',
    {
      getMarkdownFiles: () => [],
      getFiles: () => [],
      getAbstractFileByPath: () => null,
      getFileByPath: () => null,
      getFolderByPath: () => null,
      cachedRead: async () => '',
      read: async () => '',
      on: eventRef,
      // A vault's config folder name (the shim's vault has none on disk).
      configDir: 'config',
    },
    stats,
  );
  const workspace = lenient(
    'app.workspace',
    {
      onLayoutReady: (fn: AnyFn) => void fn(),
      getLeavesOfType: () => [],
      getActiveFile: () => null,
      getActiveViewOfType: () => null,
      getRightLeaf: () => null,
      on: eventRef,
      layoutReady: true,
    },
    stats,
  );
  const secrets = new Map<string, string>();
  const secretStorage = lenient(
    'app.secretStorage',
    {
      getSecret: (id: string) => secrets.get(id) ?? null,
      setSecret: (id: string, value: string) => void secrets.set(id, value),
      listSecrets: () => [...secrets.keys()],
      on: eventRef,
    },
    stats,
  );
  const metadataCache = lenient('app.metadataCache', { getFileCache: () => null, getFirstLinkpathDest: () => null, on: eventRef }, stats);
  return lenient('app', { vault, workspace, secretStorage, metadataCache, fileManager: tolerant('app.fileManager', stats) }, stats);
}

export function makeObsidianModule(stats: ShimStats): Record<string, unknown> {
  const Base = lenientClass('Component', stats);
  class Component extends Base {
    load(): void {}
    onload(): void {}
    unload(): void {}
    onunload(): void {}
    register(): void {}
    registerEvent(): void {
      stats.events++;
    }
    registerDomEvent(): void {
      stats.events++;
    }
    registerInterval(id: number): number {
      return id;
    }
    addChild<T>(child: T): T {
      return child;
    }
    removeChild<T>(child: T): T {
      return child;
    }
  }
  class Plugin extends Component {
    app: unknown;
    manifest: unknown;
    private data: unknown = null;
    constructor(app: unknown, manifest: unknown) {
      super();
      this.app = app;
      this.manifest = manifest;
    }
    async loadData(): Promise<unknown> {
      return this.data;
    }
    async saveData(data: unknown): Promise<void> {
      this.data = data;
    }
    addCommand<T>(command: T): T {
      stats.commands++;
      return command;
    }
    registerView(): void {
      stats.views++;
    }
    addSettingTab(): void {
      stats.settingTabs++;
    }
    addRibbonIcon(): unknown {
      stats.ribbonIcons++;
      return tolerant('ribbonIcon', stats);
    }
    addStatusBarItem(): unknown {
      return tolerant('statusBarItem', stats);
    }
    registerMarkdownPostProcessor(): void {}
    registerObsidianProtocolHandler(): void {}
    registerEditorExtension(): void {}
  }
  class Notice {
    constructor() {
      stats.notices++;
    }
    setMessage(): this {
      return this;
    }
    hide(): void {}
  }
  const known: Record<string, unknown> = {
    Component,
    Plugin,
    Notice,
    ItemView: lenientClass('ItemView', stats),
    View: lenientClass('View', stats),
    PluginSettingTab: lenientClass('PluginSettingTab', stats),
    Modal: lenientClass('Modal', stats),
    Events: lenientClass('Events', stats),
    Platform: { isDesktop: true, isDesktopApp: true, isMobile: false, isMobileApp: false, isMacOS: false, isWin: false, isLinux: true },
    normalizePath: (p: string) => p.replace(/\\/g, '/').replace(/\/+/g, '/').replace(/^\/|\/$/g, '') || '/',
    requestUrl: () => Promise.reject(new Error('requestUrl is not available in the benchmark shim')),
    debounce: (fn: AnyFn) => fn,
    setIcon: () => undefined,
    apiVersion: '1.13.1',
  };
  return new Proxy(known, {
    get(t, prop) {
      if (prop in t || typeof prop === 'symbol') return Reflect.get(t, prop) as unknown;
      if (prop === '__esModule') return false;
      stats.unknownAccesses.add(`obsidian.${prop}`);
      // Unknown exports are classes (TFile, MarkdownView, Setting...) or functions: this works as both.
      return new Proxy(lenientClass(`obsidian.${prop}`, stats), { apply: () => tolerant(`obsidian.${prop}()`, stats) });
    },
  });
}
