import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfjsAssetFiles } from '../../../vite-pdfjs-assets';

// jsdom has no DOMMatrix, which PDF.js's display layer names when it loads (nothing here draws)
globalThis.DOMMatrix ??= class {} as unknown as typeof DOMMatrix;
const { PDF_OPTIONS } = await import('./pdfjs');
const { pdfjs } = await import('react-pdf');

describe('PDF.js is given the CMaps and standard fonts served with the app (issue 34 item 6)', () => {
  it('the options carry cMapUrl (packed) and standardFontDataUrl, under /static, versioned by the PDF.js that runs', () => {
    const base = `/static/pdfjs-${pdfjs.version}/`;
    expect(PDF_OPTIONS).toMatchObject({
      isEvalSupported: false,
      cMapUrl: `${base}cmaps/`,
      cMapPacked: true,
      standardFontDataUrl: `${base}standard_fonts/`,
    });
  });

  it('the build emits those files there: the Chinese CMaps (UniGB-UCS2-H for STSong-Light) and the standard fonts', () => {
    const files = pdfjsAssetFiles();
    const paths = files.map((f) => `/static/${f.path}`);
    for (const url of [
      `${PDF_OPTIONS.cMapUrl}UniGB-UCS2-H.bcmap`,
      `${PDF_OPTIONS.cMapUrl}Adobe-GB1-UCS2.bcmap`,
      `${PDF_OPTIONS.standardFontDataUrl}FoxitSerif.pfb`,
      `${PDF_OPTIONS.standardFontDataUrl}LiberationSans-Regular.ttf`,
    ])
      expect(paths).toContain(url);
    expect(files.length).toBeGreaterThan(150);
    expect(files.every((f) => existsSync(f.source))).toBe(true);
  });
});
