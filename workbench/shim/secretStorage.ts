import { fsApi } from './api';
import { Events } from './events';

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Obsidian 1.11.4's SecretStorage. Secrets live in the workbench server's memory (never in the
 * vault), loaded at boot so reads are synchronous as in Obsidian.
 */
export class SecretStorage extends Events {
  private readonly secrets = new Map<string, string>();

  constructor(initial: Record<string, string>) {
    super();
    for (const [k, v] of Object.entries(initial)) this.secrets.set(k, v);
  }

  setSecret(id: string, secret: string): void {
    if (!ID.test(id)) throw new Error(`Invalid secret ID "${id}": use lowercase letters, digits and dashes`);
    this.secrets.set(id, secret);
    void fsApi.putSecrets(Object.fromEntries(this.secrets)).catch((e: unknown) => console.error('Saving secrets failed', e));
    this.trigger('changed', id);
  }

  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }

  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}
