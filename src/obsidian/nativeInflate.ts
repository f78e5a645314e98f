import { Platform } from 'obsidian';
import { useNativeInflate } from '../core/tokens/inflate';

/**
 * In the desktop app, the token rank tables inflate through Electron's own zlib instead of fflate:
 * the first token count after a start is about 100 ms sooner. A phone (and the browser workbench)
 * keeps fflate: no Node modules there.
 */
export function useDesktopInflate(): void {
  if (!Platform.isDesktopApp) return;
  if (Platform.isDesktop) {
    try {
      /* eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- Node's zlib, in the desktop app only (guarded above) */
      const zlib = require('zlib') as typeof import('zlib');
      useNativeInflate((data) => zlib.inflateRawSync(data));
    } catch {
      // No zlib after all: fflate does it.
    }
  }
}
