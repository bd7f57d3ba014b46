import { Alert, Button } from 'antd';
import { daysLeft } from '@wantuo/shared';
import { useLocation, useNavigate } from 'react-router';
import { moneyStrings } from './strings';
import { localDay } from '../../lib/school-time';
import { graceEnd, useSchool } from './use-school';

/**
 * The renewal banner on every page of the admin's console: from the first reminder (30 days) before expiry, through
 * the grace period, to read-only; a way to the renewal screen on each.
 */
export default function RenewalBanner() {
  const s = moneyStrings.use();
  const navigate = useNavigate();
  const here = useLocation().pathname;
  const school = useSchool();
  const info = school.data;
  if (!info?.service_expires_at || info.service_state === 'active') return null;
  const tz = info.timezone;
  const date = localDay(info.service_expires_at, tz);
  const text =
    info.service_state === 'expiring'
      ? s('banner.expiring', { date, n: daysLeft(info.service_expires_at) })
      : info.service_state === 'grace'
        ? s('banner.grace', { date, until: localDay(graceEnd(info.service_expires_at), tz) })
        : s('banner.read_only', { date });
  return (
    <Alert
      role="alert"
      banner
      type={info.service_state === 'expiring' ? 'warning' : 'error'}
      title={text}
      style={{ marginBottom: 16 }}
      action={
        here !== '/principal_user' && (
          <Button size="small" type="primary" onClick={() => navigate('/principal_user')}>
            {s('banner.renew')}
          </Button>
        )
      }
    />
  );
}
