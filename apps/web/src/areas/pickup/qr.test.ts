import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { ERROR_LEVEL_MAP } from '@rc-component/qrcode';
import { QrCode } from '@rc-component/qrcode/es/libs/qrcodegen';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { QrSvg, type QrLevel } from './qr-svg';

/** The modules QrSvg draws for `text` (the library's encoder, at the level it is given). */
const qrModules = (text: string, level: QrLevel): boolean[][] => QrCode.encodeText(text, ERROR_LEVEL_MAP[level]).getModules();

/** The modules as a grey image (4 px a module, a 4-module quiet zone), read back by jsQR as a phone's camera would. */
function decode(modules: boolean[][]): string | null {
  const scale = 4;
  const margin = 4;
  const side = (modules.length + margin * 2) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + margin) * scale + dy) * side + (x + margin) * scale + dx) * 4;
          data[i] = data[i + 1] = data[i + 2] = 0;
        }
    }),
  );
  return jsQR(data, side, side)?.data ?? null;
}

describe('qrModules', () => {
  // the byte-mode capacities of ISO/IEC 18004 table 7: e.g. 19 bytes at H need version 3 (29 modules)
  const cases: Array<[string, QrLevel, number]> = [
    ['1', 'M', 21],
    ['PK7Q2M9X4TZ8', 'M', 21],
    ['pickup:g12:1700000000:abcdef0123456789', 'M', 29],
    ['https://wantuo.example.com/m/pickup/AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'Q', 41],
    ['接送码 陈小雨', 'H', 29],
    ['x'.repeat(300), 'L', 61],
    ['y'.repeat(1200), 'M', 133],
  ];
  it.each(cases)('case %# at %s: the smallest symbol that holds it, read back as the same text', (text, level, size) => {
    const m = qrModules(text, level);
    expect(m.length).toBe(size);
    expect(m.every((r) => r.length === size)).toBe(true);
    expect(decode(m)).toBe(text);
  });

  it('refuses a text longer than a version 40 symbol holds', () => {
    expect(() => qrModules('z'.repeat(3000), 'M')).toThrow();
  });

  it('QrSvg draws the code as an SVG of its size with its label', () => {
    const html = renderToStaticMarkup(createElement(QrSvg, { value: 'pickup:g1:1:ab', size: 200, label: '接送码' }));
    expect(html).toMatch(/^<svg[^>]*height="200"[^>]*width="200"|^<svg[^>]*width="200"/);
    expect(html).toContain('接送码');
    expect(html).toContain('<path');
  });
});
