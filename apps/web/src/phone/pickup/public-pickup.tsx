import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import ExclamationCircleOutline from 'antd-mobile-icons/es/ExclamationCircleOutline';
import { useParams } from 'react-router';
import { get } from '../../api/http';
import { isPickupLinkToken } from '../../areas/pickup/link-token';
import { QrSvg } from '../../areas/pickup/qr-svg';
import { pickupStrings } from '../../areas/pickup/strings';
import { usePickupCode } from '../../areas/pickup/use-pickup-code';
import { phoneStrings } from '../strings';
import { useOnline } from '../ui/online';
import { PhonePage } from '../ui/page';
import { PhoneLoading } from '../ui/states';
import './public-pickup.css';

/**
 * /m/pickup/:token (no sign-in): the page a guardian shares with a grandparent or a driver. It shows that person's own
 * rotating code (pickupCodeByLink, a new one every 30 s with a countdown) for the teacher to scan at the door; a
 * revoked or mistyped link says so, offline says to connect (a code must be fresh).
 */
export default function PublicPickupPhone() {
  const { token = '' } = useParams();
  const valid = isPickupLinkToken(token);
  return <PhonePage>{valid ? <LinkCode token={token} /> : <Invalid />}</PhonePage>;
}

function Invalid({ onRetry }: { onRetry?: () => void }) {
  const pt = pickupStrings.use();
  const t = phoneStrings.use();
  const online = useOnline();
  return (
    <div className="m-section m-state" role="alert" data-testid="pickup-invalid">
      <div className="m-state-icon" aria-hidden>
        <ExclamationCircleOutline />
      </div>
      <div className="m-state-title">{online ? pt('pickup.public_invalid') : t('m.offline_empty')}</div>
      {onRetry && (
        <Button color="primary" onClick={onRetry}>
          {t('m.retry')}
        </Button>
      )}
    </div>
  );
}

function LinkCode({ token }: { token: string }) {
  const pt = pickupStrings.use();
  const { q, secondsLeft } = usePickupCode(['pickupCodeByLink', token], () => get('pickupCodeByLink', { token }, { silent: true }));
  if (q.isPending) return <PhoneLoading rows={6} />;
  if (!q.data) return <Invalid onRetry={() => void q.refetch()} />;
  const c = q.data;
  return (
    <Card className="m-pass-card" data-testid="public-pickup">
      <div className="m-pass-who">{pt('pickup.public_title', { name: c.name })}</div>
      <div className="m-pass-code" data-testid="pickup-code" data-code={c.code}>
        <QrSvg value={c.code} size={248} label={pt('pickup.title')} />
      </div>
      <div className="m-pass-name">
        {c.name}（{c.relation}）
      </div>
      <div className="m-pass-for">{pt('pickup.for', { names: c.students.map((s) => s.name).join('、') })}</div>
      <div className="m-pass-countdown" data-testid="pickup-countdown" aria-live="polite">
        {pt('pickup.refresh_in', { s: secondsLeft })}
      </div>
      <p className="m-pass-hint">{pt('pickup.hint')}</p>
    </Card>
  );
}
