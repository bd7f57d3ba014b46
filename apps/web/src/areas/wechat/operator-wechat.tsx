import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Flex, Grid, Input, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { WECHAT_TEMPLATE_ID, type WechatAccountAnswer } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { useKindLabel, wechatStrings } from './strings';

type Template = WechatAccountAnswer['templates'][number];
const KEY = ['wechatAccount'];

/** /operator_wechat 公众号: the platform's official account (app id, sandbox or real, its token, bound guardians) and the template id per kind. */
export default function OperatorWechat() {
  const s = wechatStrings.use();
  const q = useQuery({ queryKey: KEY, queryFn: () => get('wechatAccount') });
  if (q.isLoading) {
    return (
      <Card>
        <Loading />
      </Card>
    );
  }
  if (q.isError || !q.data) {
    return (
      <Card>
        <LoadError onRetry={() => void q.refetch()} />
      </Card>
    );
  }
  const a = q.data;
  return (
    <Flex vertical gap={16}>
      <Card title={s('op.account')}>
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'appid', label: s('op.appid'), children: <Typography.Text copyable>{a.appid}</Typography.Text> },
            {
              key: 'mode',
              label: s('op.mode'),
              children: a.sandbox ? <Tag color="gold">{s('op.sandbox')}</Tag> : <Tag color="green">{s('op.real')}</Tag>,
            },
            {
              key: 'token',
              label: s('op.token'),
              children: a.token.fresh ? (
                <Tag color="success">{s('op.token_ok')}</Tag>
              ) : (
                <Space wrap size={4}>
                  <Tag color="error">{s('op.token_bad')}</Tag>
                  {a.token.error && (
                    <Typography.Text type="danger" style={{ overflowWrap: 'anywhere' }}>
                      {a.token.error}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            { key: 'bound', label: s('op.bound'), children: <span data-testid="wechat-bound-guardians">{a.bound_guardians}</span> },
          ]}
        />
        {a.sandbox && <Alert style={{ marginTop: 12 }} type="info" showIcon title={s('op.sandbox_hint')} />}
      </Card>
      <Card title={s('op.templates')}>
        <Typography.Paragraph type="secondary">{s('op.templates_hint')}</Typography.Paragraph>
        <Templates list={a.templates} />
      </Card>
    </Flex>
  );
}

function Templates({ list }: { list: Template[] }) {
  const s = wechatStrings.use();
  const kindLabel = useKindLabel();
  const clock = useSchoolClock();
  const phone = !Grid.useBreakpoint().md;
  const qc = useQueryClient();
  const [editing, setEditing] = useState<{ kind: string; value: string } | null>(null);
  const valid = !!editing && WECHAT_TEMPLATE_ID.test(editing.value.trim());
  const saveAction = useAction('saveWechatTemplates', {
    onDone: (d) => {
      qc.setQueryData(KEY, d);
      setEditing(null);
      feedback().message.success(s('op.saved'));
    },
  });
  const save = {
    run: (e: { kind: string; value: string }) => void saveAction.run({ templates: [{ kind: e.kind, template_id: e.value.trim() }] }),
    busy: saveAction.busy,
  };

  const columns: ColumnsType<Template> = [
    { title: s('col.kind'), dataIndex: 'kind', width: phone ? 110 : 180, render: (k: string) => kindLabel(k) },
    {
      title: s('op.template_id'),
      key: 'template_id',
      render: (_: unknown, r: Template) =>
        editing?.kind === r.kind ? (
          <Flex vertical gap={4}>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                autoFocus
                aria-label={s('op.template_id')}
                data-testid={`template-input-${r.kind}`}
                maxLength={64}
                status={editing.value.trim() && !valid ? 'error' : undefined}
                value={editing.value}
                onChange={(e) => setEditing({ kind: r.kind, value: e.target.value })}
                onPressEnter={() => valid && save.run(editing)}
              />
              <Button type="primary" data-testid={`template-save-${r.kind}`} disabled={!valid} loading={save.busy} onClick={() => save.run(editing)}>
                {s('op.save')}
              </Button>
              <Button onClick={() => setEditing(null)}>{s('op.cancel')}</Button>
            </Space.Compact>
            {editing.value.trim() && !valid && (
              <Typography.Text type="danger" style={{ fontSize: 12 }}>
                {s('op.template_invalid')}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Flex vertical gap={2}>
            <Space size={4} wrap>
              {r.template_id ? (
                <Typography.Text code style={{ overflowWrap: 'anywhere' }}>
                  {r.template_id}
                </Typography.Text>
              ) : (
                <Tag color="orange">{s('op.template_missing')}</Tag>
              )}
              {r.is_default && <Tag color="gold">{s('op.template_default')}</Tag>}
              <Button
                size="small"
                type="link"
                data-testid={`template-edit-${r.kind}`}
                onClick={() => setEditing({ kind: r.kind, value: r.is_default ? '' : (r.template_id ?? '') })}
              >
                {s('op.edit')}
              </Button>
            </Space>
            {r.updated_at && (
              <Tooltip title={clock.dateTime(r.updated_at)}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s('op.updated', { name: r.updated_by_name ?? '—', at: clock.monthDayTime(r.updated_at) })}
                </Typography.Text>
              </Tooltip>
            )}
          </Flex>
        ),
    },
  ];
  return <Table<Template> rowKey="kind" size="small" pagination={false} dataSource={list} columns={columns} data-testid="wechat-templates" />;
}
