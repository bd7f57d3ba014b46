import { Alert, Button, Space } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { onPhone, userAgent } from '../lib/wechat-env';
import { storage } from '../lib/storage';
import { phoneTwinOf } from '../phone/route-table';
import { phoneStrings } from '../phone/strings';
import { useSession } from '../stores/session';

/** Where a phone user said "stay on the desktop version" (or came from the phone app's 电脑版): 30 days. */
export const DESKTOP_CHOSEN = '_m_desktop';
const DESKTOP_DAYS = 30;

/** Whether to offer the phone page: a phone's browser, a desktop route with a phone twin for the role, not declined. */
export function phoneOfferFor(pathname: string, search: string, role: Parameters<typeof phoneTwinOf>[2], ua: string): string | null {
  if (!onPhone(ua)) return null;
  const query = new URLSearchParams(search);
  if (query.has('desktop')) {
    storage.set(DESKTOP_CHOSEN, true, DESKTOP_DAYS * 86400);
    return null;
  }
  if (storage.get<boolean>(DESKTOP_CHOSEN)) return null;
  return phoneTwinOf(pathname, search, role);
}

/**
 * On a phone, a desktop route with a phone page (issue 35: "a user on a phone who opens a desktop route is offered the
 * phone page"): a notice at the top with 打开手机版 (a full load of the phone app) and 留在电脑版 (remembered).
 */
export function PhoneOffer() {
  const t = phoneStrings.use();
  const { pathname, search } = useLocation();
  const role = useSession((s) => s.user?.role);
  const [declined, setDeclined] = useState(false);
  const twin = declined ? null : phoneOfferFor(pathname, search, role, userAgent());
  if (!twin) return null;
  return (
    <Alert
      className="phone-offer"
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      title={t('m.offer_title')}
      action={
        <Space orientation="vertical" size={4}>
          <Button size="small" type="primary" onClick={() => window.location.assign(twin)}>
            {t('m.offer_open')}
          </Button>
          <Button
            size="small"
            type="text"
            onClick={() => {
              storage.set(DESKTOP_CHOSEN, true, DESKTOP_DAYS * 86400);
              setDeclined(true);
            }}
          >
            {t('m.offer_stay')}
          </Button>
        </Space>
      }
    />
  );
}
