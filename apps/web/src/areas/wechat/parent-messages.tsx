import { Alert, Button, Card, Descriptions, Flex, Popconfirm, Segmented, Tag, Typography } from 'antd';
import { MESSAGE_CHANNELS, type MessageChannel, type MessagePrefsAnswer } from '@wantuo/shared';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { channelKey, useKindLabel, wechatStrings } from './strings';
import { useMessagePrefs, usePrefsDraft, useWechatUnbind } from './use-message-prefs';

/** /parent_messages 消息通知: per kind of message the channel (微信/短信/都要/不接收), and the WeChat binding. Phone first (375 px). */
export default function ParentMessages() {
  const s = wechatStrings.use();
  const q = useMessagePrefs();
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => void q.refetch()} />;
  return (
    <Flex vertical gap={12} style={{ maxWidth: 560 }}>
      {/* keyed by the saved answer: a save or a refetch starts the draft again from what the server holds */}
      <Prefs key={JSON.stringify(q.data.kinds.map((k) => k.channel))} data={q.data} />
      <Binding binding={q.data.binding} />
      {q.data.kinds.length > 0 && !q.data.binding.bound && <Typography.Text type="secondary">{s('prefs.wechat_unbound_hint')}</Typography.Text>}
    </Flex>
  );
}

function Prefs({ data }: { data: MessagePrefsAnswer }) {
  const s = wechatStrings.use();
  const kindLabel = useKindLabel();
  const { draft, choose, changed, save } = usePrefsDraft(data);

  return (
    <Card title={s('prefs.title')} styles={{ body: { padding: 12 } }}>
      <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
        {s('prefs.hint')}
      </Typography.Paragraph>
      {data.kinds.length === 0 ? (
        <EmptyState description={s('prefs.empty')} />
      ) : (
        <Flex vertical gap={12}>
          {data.kinds.map((k) => (
            <div key={k.kind} data-testid={`pref-${k.kind}`}>
              <Flex justify="space-between" align="baseline" gap={8} style={{ marginBottom: 4 }}>
                <Typography.Text strong>{kindLabel(k.kind)}</Typography.Text>
                {!k.chosen && draft[k.kind] === k.channel && (
                  <Tag style={{ marginInlineEnd: 0 }} variant="filled">
                    {s('prefs.default')}
                  </Tag>
                )}
              </Flex>
              <Segmented<MessageChannel>
                block
                aria-label={kindLabel(k.kind)}
                value={draft[k.kind]}
                onChange={(v) => choose(k.kind, v)}
                options={MESSAGE_CHANNELS.map((c) => ({ value: c, label: s(channelKey(c)), disabled: !k.channels.includes(c) }))}
              />
              {!k.may_turn_off && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s('prefs.required_hint')}
                </Typography.Text>
              )}
            </div>
          ))}
          <Button type="primary" block data-testid="prefs-save" disabled={changed.length === 0} loading={save.busy} onClick={() => void save.run()}>
            {changed.length === 0 ? s('prefs.unchanged') : s('prefs.save')}
          </Button>
        </Flex>
      )}
    </Card>
  );
}

function Binding({ binding }: { binding: MessagePrefsAnswer['binding'] }) {
  const s = wechatStrings.use();
  const clock = useSchoolClock();
  const unbind = useWechatUnbind();
  return (
    <Card
      title={s('bind.title')}
      styles={{ body: { padding: 12 } }}
      extra={
        <Tag
          color={binding.bound ? 'success' : 'default'}
          data-testid="wechat-bound"
          data-bound={binding.bound ? '1' : '0'}
          style={{ marginInlineEnd: 0 }}
        >
          {binding.bound ? s('bind.bound') : s('bind.unbound')}
        </Tag>
      }
    >
      {binding.bound ? (
        <Flex vertical gap={12}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'at', label: s('bind.bound_at'), children: clock.dateTime(binding.bound_at) },
              { key: 'openid', label: s('bind.openid'), children: <Typography.Text code>{binding.openid}</Typography.Text> },
            ]}
          />
          <Popconfirm
            title={s('bind.unbind_confirm')}
            description={<div style={{ maxWidth: 260 }}>{s('bind.unbind_detail')}</div>}
            okText={s('bind.unbind')}
            okButtonProps={{ danger: true, loading: unbind.busy }}
            onConfirm={() => unbind.run()}
          >
            <Button danger block data-testid="wechat-unbind" loading={unbind.busy}>
              {s('bind.unbind')}
            </Button>
          </Popconfirm>
        </Flex>
      ) : (
        <Alert type="info" showIcon title={s('bind.how')} />
      )}
    </Card>
  );
}
