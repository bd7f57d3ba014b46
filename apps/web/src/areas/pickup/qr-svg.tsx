import { useMemo } from 'react';
import { qrModules, qrPath, type QrLevel } from './qr';

/** A QR code as an SVG (no UI library): `size` CSS px square, dark modules on white with a 4-module quiet zone. */
export function QrSvg({ value, size = 240, level = 'M', label }: { value: string; size?: number; level?: QrLevel; label?: string }) {
  const { side, d } = useMemo(() => {
    const modules = qrModules(value, level);
    return { side: modules.length + 8, d: qrPath(modules) };
  }, [value, level]);
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${side} ${side}`}
      shapeRendering="crispEdges"
      role="img"
      aria-label={label}
      style={{ display: 'block', background: '#fff' }}
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
