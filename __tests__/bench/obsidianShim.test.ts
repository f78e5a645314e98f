import { makeApp, makeObsidianModule, newStats, tolerant } from '../../bench/plugin/obsidianShim';

interface PluginLike {
  app: { workspace: { getLeavesOfType(t: string): unknown[] }; secretStorage: { setSecret(id: string, v: string): void; getSecret(id: string): string | null } };
  loadData(): Promise<unknown>;
  saveData(data: unknown): Promise<void>;
  addCommand(c: { id: string }): unknown;
  registerView(type: string, make: () => unknown): void;
  addRibbonIcon(icon: string, title: string, cb: () => void): { addClass(c: string): void };
  somethingNew(): unknown;
}
type PluginCtor = new (app: unknown, manifest: unknown) => PluginLike;

describe('the obsidian shim for loading main.js in Node', () => {
  test('a plugin subclass loads, registers and round-trips its data', async () => {
    const stats = newStats();
    const obsidian = makeObsidianModule(stats);
    const Base = obsidian.Plugin as PluginCtor;
    class Demo extends Base {
      async onload(): Promise<void> {
        await this.saveData({ a: 1 });
        this.addCommand({ id: 'one' });
        this.addCommand({ id: 'two' });
        this.registerView('v', () => null);
        this.addRibbonIcon('x', 'X', () => undefined).addClass('c');
        this.app.secretStorage.setSecret('key', 'value');
      }
    }
    const plugin = new Demo(makeApp(stats), { id: 'demo' });
    await plugin.onload();
    expect(await plugin.loadData()).toEqual({ a: 1 });
    expect(plugin.app.secretStorage.getSecret('key')).toBe('value');
    expect(plugin.app.workspace.getLeavesOfType('v')).toEqual([]);
    expect(stats).toMatchObject({ commands: 2, views: 1, ribbonIcons: 1 });
  });

  test('unknown members and exports are tolerated and recorded', async () => {
    const stats = newStats();
    const obsidian = makeObsidianModule(stats);
    const Base = obsidian.Plugin as PluginCtor;
    const plugin = new Base(makeApp(stats), {});
    expect(() => plugin.somethingNew()).not.toThrow();
    const Setting = obsidian.Setting as new () => { setName(n: string): { setDesc(d: string): unknown } };
    expect(() => new Setting().setName('Name').setDesc('Description')).not.toThrow();
    const helper = obsidian.sanitizeHTMLToDom as (s: string) => unknown;
    expect(() => helper('x')).not.toThrow();
    expect([...stats.unknownAccesses]).toEqual(expect.arrayContaining(['obsidian.Setting', 'obsidian.sanitizeHTMLToDom']));
  });

  test('a tolerant value is never thenable: awaiting it does not hang', async () => {
    const value = tolerant('x') as { then?: unknown; deep: { call(): unknown } };
    expect(value.then).toBeUndefined();
    await expect(Promise.resolve(value.deep.call())).resolves.toBeDefined();
    expect((value as unknown as { toString(): string }).toString()).toBe('');
  });
});
