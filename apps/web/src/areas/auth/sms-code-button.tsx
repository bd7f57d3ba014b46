import Button from 'antd/es/button';
import { useEffect, useState } from 'react';
import { sendSms } from '../../api/http';
import { useT } from '../../stores/preferences';

/** Sends an SMS code and counts down 60 s before another may be asked for. `getMobile` validates first. */
export function SmsCodeButton({ event, getMobile }: { event: 'login' | 'resetpwd' | 'dealpwd'; getMobile: () => Promise<string | null> }) {
  const t = useT();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  const send = async () => {
    const mobile = await getMobile();
    if (!mobile) return;
    setSending(true);
    try {
      await sendSms(mobile, event);
      setLeft(60);
    } catch {
      // the request wrapper has shown the reason (too soon, daily limit, unknown mobile)
    } finally {
      setSending(false);
    }
  };
  return (
    <Button onClick={send} disabled={left > 0} loading={sending} style={{ minWidth: 120 }}>
      {left > 0 ? t('login.resend', { s: left }) : t('login.send_code')}
    </Button>
  );
}
