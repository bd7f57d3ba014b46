import { Alert, Button, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useT } from '../../stores/preferences';

const SIZE = 25;

/** A QR-style grid drawn from a random session id (the code a future mobile app would scan). */
function QrPicture({ seed }: { seed: string }) {
  const cells = useMemo(() => {
    let h = 0;
    for (const c of seed) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    const out: [number, number][] = [];
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        const finder = (x < 7 && y < 7) || (x >= SIZE - 7 && y < 7) || (x < 7 && y >= SIZE - 7);
        h = (h * 1103515245 + 12345) >>> 0;
        if (finder ? (x % 6 === 0 || y % 6 === 0 || (x % 6 >= 2 && x % 6 <= 4 && y % 6 >= 2 && y % 6 <= 4)) && (x < 7 || x >= SIZE - 7) && (y < 7 || y >= SIZE - 7) : (h >> 16) % 2 === 0) out.push([x, y]);
      }
    return out;
  }, [seed]);
  return (
    <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width={180} height={180} role="img" aria-label="QR" shapeRendering="crispEdges">
      <rect width={SIZE} height={SIZE} fill="#fff" />
      {cells.map(([x, y]) => (
        <rect key={`${x}-${y}`} x={x} y={y} width={1} height={1} fill="#000" />
      ))}
    </svg>
  );
}

/** QR sign-in (spec §2): the code, and the simulated scan after 3 seconds. */
export default function QrLogin({ onDone }: { onDone: () => void }) {
  const t = useT();
  const [scanned, setScanned] = useState(false);
  const seed = useMemo(() => crypto.randomUUID(), []);
  useEffect(() => {
    const id = setTimeout(() => setScanned(true), 3000);
    return () => clearTimeout(id);
  }, []);
  return (
    <div className="login-qr">
      <Typography.Title level={4}>{t('login.qr')}</Typography.Title>
      <div style={{ opacity: scanned ? 0.25 : 1, transition: 'opacity .3s' }}>
        <QrPicture seed={seed} />
      </div>
      <Typography.Text>{scanned ? t('login.qr_scanned') : t('login.qr_hint')}</Typography.Text>
      {scanned && <Alert type="info" showIcon title={t('login.qr_unavailable')} />}
      <Button type="link" onClick={onDone}>
        {t('common.back')}
      </Button>
    </div>
  );
}
