import { QRCodeSVG } from '@rc-component/qrcode';

export type QrLevel = 'L' | 'M' | 'Q' | 'H';

/**
 * A QR code as an SVG, without the consoles' antd: @rc-component/qrcode (the encoder behind antd's QRCode) drawing
 * `size` CSS px square, dark modules on white with a 4-module quiet zone.
 */
export function QrSvg({ value, size = 240, level = 'M', label }: { value: string; size?: number; level?: QrLevel; label?: string }) {
  return (
    <QRCodeSVG
      value={value}
      size={size}
      level={level}
      marginSize={4}
      bgColor="#fff"
      fgColor="#000"
      title={label}
      role="img"
      aria-label={label}
      style={{ display: 'block', background: '#fff' }}
    />
  );
}
