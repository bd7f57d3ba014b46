import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import type { MessagePrefsAnswer } from '@wantuo/shared';
import { wechatStrings } from '../../areas/wechat/strings';
import { useWechatUnbind } from '../../areas/wechat/use-message-prefs';
import { useSchoolClock } from '../../lib/school-time';
import { phoneStrings } from '../strings';
import './me.css';

/** The WeChat binding: its state, when, and unbinding (confirmed first); how to bind when not bound. */
export function WechatBinding({ binding, hasKinds = false }: { binding: MessagePrefsAnswer['binding']; hasKinds?: boolean }) {
  const s = wechatStrings.use();
  const clock = useSchoolClock();
  const unbind = useWechatUnbind();
  const ask = async () => {
    const ok = await Dialog.confirm({
      title: s('bind.unbind_confirm'),
      content: s('bind.unbind_detail'),
      confirmText: <span style={{ color: 'var(--adm-color-danger)' }}>{s('bind.unbind')}</span>,
      cancelText: phoneStrings.t('m.cancel'),
    });
    if (ok) await unbind.run();
  };
  return (
    <>
      <List className="m-section">
        <List.Item
          extra={
            <Tag color={binding.bound ? 'success' : 'default'} data-testid="wechat-bound" data-bound={binding.bound ? '1' : '0'}>
              {binding.bound ? s('bind.bound') : s('bind.unbound')}
            </Tag>
          }
          description={binding.bound ? `${s('bind.bound_at')} ${clock.dateTime(binding.bound_at)}` : s('bind.how')}
        >
          {s('bind.title')}
        </List.Item>
        {binding.bound && (
          <List.Item onClick={() => void ask()} data-testid="wechat-unbind" arrowIcon={false}>
            <span style={{ color: 'var(--adm-color-danger)' }}>{s('bind.unbind')}</span>
          </List.Item>
        )}
      </List>
      {hasKinds && !binding.bound && <p className="m-hint">{s('prefs.wechat_unbound_hint')}</p>}
    </>
  );
}
