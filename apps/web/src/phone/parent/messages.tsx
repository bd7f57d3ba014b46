import Badge from 'antd-mobile/es/components/badge';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Selector from 'antd-mobile/es/components/selector';
import Tag from 'antd-mobile/es/components/tag';
import MessageOutline from 'antd-mobile-icons/es/MessageOutline';
import SoundOutline from 'antd-mobile-icons/es/SoundOutline';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGE_CHANNELS, type MessageChannel, type MessagePrefsAnswer } from '@wantuo/shared';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { useUnread } from '../../areas/conversations/model';
import { conversationsStrings } from '../../areas/conversations/strings';
import { channelKey, useKindLabel, wechatStrings } from '../../areas/wechat/strings';
import { useMessagePrefs, usePrefsDraft } from '../../areas/wechat/use-message-prefs';
import { WechatBinding as Binding } from '../me/wechat-binding';
import { PhonePage, QueryView } from '../ui/page';
import { moreStrings } from './more-strings';
import '../me/me.css';
import './more.css';

/**
 * /m/parent_messages (消息 tab): the conversation with the teachers first (和老师聊天, its unread count), the school's notices (how many unread), then how each kind of message reaches the
 * guardian (微信 / 短信 / 都要 / 不接收, saved together) and the WeChat binding.
 */
export default function ParentMessagesPhone() {
  const qc = useQueryClient();
  const q = useMessagePrefs();
  const refresh = () =>
    Promise.all([q.refetch(), qc.refetchQueries({ queryKey: ['notices', 'unread-count'] }), qc.refetchQueries({ queryKey: ['conversationUnread'] })]);
  return (
    <PhonePage onRefresh={refresh}>
      <ChatLink />
      <NoticesLink />
      <QueryView query={q}>
        {(data) => (
          <>
            {/* keyed by the saved answer: a save or a refetch starts the draft again from what the server holds */}
            <Prefs key={JSON.stringify(data.kinds.map((k) => k.channel))} data={data} />
            <Binding binding={data.binding} hasKinds={data.kinds.length > 0} />
          </>
        )}
      </QueryView>
    </PhonePage>
  );
}

/** 和老师聊天: the link to the conversation of the chosen child, with the unread messages of all of them (issue 40). */
function ChatLink() {
  const c = conversationsStrings.use();
  const navigate = useNavigate();
  const q = useUnread();
  const unread = q.data?.unread ?? 0;
  return (
    <List className="m-section">
      <List.Item
        prefix={<MessageOutline fontSize={22} color="var(--adm-color-primary)" />}
        description={c('entry.parent_hint')}
        extra={
          q.data ? unread > 0 ? <Badge content={c('entry.unread', { n: unread })} /> : <span className="m-muted">{c('entry.all_read')}</span> : null
        }
        onClick={() => navigate('/m/parent_chat')}
        data-testid="messages-chat"
      >
        {c('entry.parent')}
      </List.Item>
    </List>
  );
}

/** 通知: the link to the school's notices, with the unread count (one row of the list: its count comes with it). */
function NoticesLink() {
  const t = moreStrings.use();
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['notices', 'unread-count'],
    queryFn: () => get('parentInformList', { page: 1, limit: 1, unread: 1 }, { silent: true }),
  });
  const unread = q.data?.unread ?? 0;
  return (
    <List className="m-section">
      <List.Item
        prefix={<SoundOutline fontSize={22} color="var(--adm-color-primary)" />}
        description={t('pm.notices_hint')}
        extra={
          q.data ? (
            unread > 0 ? (
              <Badge content={t('pm.notices_unread', { n: unread })} />
            ) : (
              <span className="m-muted">{t('pm.notices_all_read')}</span>
            )
          ) : null
        }
        onClick={() => navigate('/m/parent_notices')}
        data-testid="messages-notices"
      >
        {t('pm.notices')}
      </List.Item>
    </List>
  );
}

function Prefs({ data }: { data: MessagePrefsAnswer }) {
  const s = wechatStrings.use();
  const kindLabel = useKindLabel();
  const { draft, choose, changed, save } = usePrefsDraft(data);
  if (data.kinds.length === 0) {
    return (
      <List className="m-section" header={s('prefs.title')}>
        <List.Item>{s('prefs.empty')}</List.Item>
      </List>
    );
  }
  return (
    <>
      <List className="m-section" header={s('prefs.title')}>
        {data.kinds.map((k) => (
          <List.Item
            key={k.kind}
            data-testid={`pref-${k.kind}`}
            description={
              <>
                <Selector<MessageChannel>
                  className="m-choice"
                  columns={4}
                  style={{ marginTop: 8 }}
                  value={[draft[k.kind]]}
                  onChange={(v) => v[0] && choose(k.kind, v[0])}
                  options={MESSAGE_CHANNELS.map((c) => ({ value: c, label: s(channelKey(c)), disabled: !k.channels.includes(c) }))}
                />
                {!k.may_turn_off && <div style={{ marginTop: 6 }}>{s('prefs.required_hint')}</div>}
              </>
            }
          >
            <div className="m-row">
              <span>{kindLabel(k.kind)}</span>
              {!k.chosen && draft[k.kind] === k.channel && <Tag fill="outline">{s('prefs.default')}</Tag>}
            </div>
          </List.Item>
        ))}
      </List>
      <p className="m-hint">{s('prefs.hint')}</p>
      <div style={{ margin: 12 }}>
        <Button
          block
          color="primary"
          size="large"
          data-testid="prefs-save"
          disabled={changed.length === 0}
          loading={save.busy}
          onClick={() => void save.run()}
        >
          {changed.length === 0 ? s('prefs.unchanged') : s('prefs.save')}
        </Button>
      </div>
    </>
  );
}
