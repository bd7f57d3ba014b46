import { Alert, Button, Descriptions, Flex, Modal, Typography } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useRef, useState } from 'react';
import { decodeQrFile } from '../auth/qr-decode';
import { pickupStrings } from './strings';
import { usePickupScan, useQrCamera } from './use-pickup-scan';

/**
 * 扫码核验 at 离园: the camera (BarcodeDetector, else jsQR) or a photo, the code checked on the phone with the school's
 * public key (cached: works offline), the person and children shown, then the departure with the code; offline it is
 * queued with verified_at and sent when back online (use-pickup-scan.ts).
 */
export function PickupScan({ students, onDone }: { students: Array<{ id: number; name: string }>; onDone: () => void }) {
  const pt = pickupStrings.use();
  const [open, setOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const { error, scanned, busy, done, setDone, onText, confirm: record, reset } = usePickupScan({ studentsFor: () => students, onDone });
  // the camera while the dialog is open and nothing is scanned yet
  const { videoRef, noCamera } = useQrCamera(open && !scanned, onText);

  const confirm = async () => {
    if (await record()) setOpen(false);
  };

  const close = () => {
    setOpen(false);
    reset();
  };

  return (
    <>
      <Button
        size="large"
        icon={<ScanOutlined />}
        data-testid="pickup-scan"
        onClick={() => {
          setDone(null);
          setOpen(true);
        }}
      >
        {pt('pickup.scan')}
      </Button>
      {done && <Alert type="success" showIcon title={done} data-testid="pickup-done" style={{ marginTop: 8 }} />}
      <Modal open={open} title={pt('pickup.scan_title')} onCancel={close} footer={null} destroyOnHidden>
        <Flex vertical gap={12}>
          {error && <Alert type="error" showIcon title={error} data-testid="pickup-refused" />}
          {!scanned && (
            <>
              {!noCamera && <video ref={videoRef} muted playsInline style={{ width: '100%', maxHeight: 280, background: '#000' }} />}
              {noCamera && <Typography.Text type="secondary">{pt('pickup.scan_no_camera')}</Typography.Text>}
              <Button size="large" block onClick={() => fileRef.current?.click()}>
                {pt('pickup.scan_photo')}
              </Button>
              <input
                ref={fileRef}
                type="file"
                accept="image/*"
                hidden
                data-testid="pickup-scan-file"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) await onText(await decodeQrFile(file).catch(() => null));
                }}
              />
            </>
          )}
          {scanned && (
            <>
              <Alert
                type="success"
                showIcon
                data-testid="pickup-verified"
                title={pt('pickup.verified', {
                  name: scanned.person?.name || pt('pickup.unknown_person'),
                  relation: scanned.person?.relation || '-',
                })}
                description={!navigator.onLine ? pt('pickup.verified_offline') : undefined}
              />
              <Descriptions
                size="small"
                column={1}
                items={[{ key: 'c', label: '', children: pt('pickup.children', { names: students.map((s) => s.name).join('、') }) }]}
              />
              <Button type="primary" size="large" block loading={busy} onClick={() => void confirm()} data-testid="pickup-confirm">
                {pt('pickup.confirm')}
              </Button>
            </>
          )}
        </Flex>
      </Modal>
    </>
  );
}
