import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
import { measureImage } from '../../../src/core/context/images';

/*
 * Issue 30: the bundle's image-size knows only the four types Strata sends (PNG, JPEG, GIF, WebP;
 * scripts/unusedPackageModules.cjs). measureImage as bundled answers as the sources do (all 20
 * types) for every input: real images, each type's signature followed by any bytes, any bytes.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../../../scripts/bundlePlugins.cjs') as { bundlePlugins: () => Plugin[] };

const ROOT = path.join(__dirname, '..', '..', '..');

let bundled: typeof measureImage;
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-images-bundled-'));
  const outfile = path.join(dir, 'images.js');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [path.join('src', 'core', 'context', 'images.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
    outfile,
    plugins: bundlePlugins(),
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle just built
  ({ measureImage: bundled } = require(outfile) as { measureImage: typeof measureImage });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** The first bytes each of image-size's 20 types checks for (and a PNG signature after a stray byte). */
const SIGNATURES: readonly number[][] = [
  [0x89, ...ascii('PNG\r\n\x1a\n'), 0, 0, 0, 13, ...ascii('IHDR')],
  [0x00, ...ascii('PNG\r\n\x1a\n'), 0, 0, 0, 13, ...ascii('IHDR')],
  [0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08],
  ascii('GIF89a'),
  ascii('GIF87a'),
  [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8 ')],
  [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8X')],
  ascii('BM'),
  [0, 0, 2, 0, 1, 0],
  [0, 0, 1, 0, 1, 0],
  ascii('DDS '),
  [0, 0, 0, 0x18, ...ascii('ftypheic')],
  ascii('icns'),
  [0xff, 0x4f, 0xff, 0x51],
  [0, 0, 0, 0x0c, ...ascii('jP  ')],
  [0, 0, 0, 0x0c, ...ascii('JXL ')],
  [0xff, 0x0a],
  [0xab, ...ascii('KTX 11'), 0xbb],
  ascii('P6'),
  ascii('8BPS'),
  ascii('<svg width="10" height="20">'),
  [0, 0, 0, 0, 0, 0],
  [...ascii('II*'), 0],
  [...ascii('MM'), 0, 0x2a],
];

const le16 = (n: number): number[] => [n & 255, n >> 8];
const be16 = (n: number): number[] => [n >> 8, n & 255];
const le24 = (n: number): number[] => [n & 255, (n >> 8) & 255, n >> 16];

/** A well-formed header of each type Strata sends, for a width and height in 1..16383. */
const HEADERS: readonly ((w: number, h: number) => number[])[] = [
  (w, h) => [0x89, ...ascii('PNG\r\n\x1a\n'), 0, 0, 0, 13, ...ascii('IHDR'), 0, 0, ...be16(w), 0, 0, ...be16(h), 8, 2, 0, 0, 0],
  (w, h) => [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0, 0x00, 0x11, 0x08, ...be16(h), ...be16(w), 3],
  (w, h) => [...ascii('GIF89a'), ...le16(w), ...le16(h)],
  (w, h) => [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8X'), 10, 0, 0, 0, 0, 0, 0, 0, ...le24(w - 1), ...le24(h - 1)],
  (w, h) => [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8 '), 10, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(w), ...le16(h)],
];

describe('measureImage as bundled', () => {
  it('measures a well-formed header of each type it sends, and answers as the sources do when one byte of it is changed', () => {
    const size = fc.integer({ min: 1, max: 16383 });
    fc.assert(
      fc.property(fc.constantFrom(...HEADERS), size, size, fc.uint8Array({ maxLength: 16 }), fc.nat(), fc.nat({ max: 255 }), (header, w, h, tail, at, byte) => {
        const bytes = Uint8Array.from([...header(w, h), ...tail]);
        expect(bundled(bytes)).toEqual(measureImage(bytes));
        expect(bundled(bytes)).toMatchObject({ width: w, height: h });
        bytes[at % bytes.length] = byte;
        expect(bundled(bytes)).toEqual(measureImage(bytes));
      }),
      { numRuns: 2000, seed: 30 },
    );
  });

  it('measures the real images of the provider fixtures as the sources do', () => {
    for (const file of ['attachments/dot.png', 'pics/red square.png']) {
      const bytes = new Uint8Array(readFileSync(path.join(ROOT, '__tests__', 'providers', 'fixtures', 'imageVault', file)));
      expect(bundled(bytes)).toEqual(measureImage(bytes));
      expect(bundled(bytes)).toMatchObject({ mediaType: 'image/png' });
    }
  });

  it('answers as the sources do for every type\'s signature followed by any bytes, and for any bytes', () => {
    const signed = fc.tuple(fc.constantFrom(...SIGNATURES), fc.uint8Array({ maxLength: 64 })).map(([head, tail]) => Uint8Array.from([...head, ...tail]));
    fc.assert(
      fc.property(fc.oneof(signed, fc.uint8Array({ maxLength: 64 })), (bytes) => {
        expect(bundled(bytes)).toEqual(measureImage(bytes));
      }),
      { numRuns: 5000, seed: 30 },
    );
  });
});
