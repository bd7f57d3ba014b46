import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Flex, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { t as serverText, type MessageKey as ServerMessageKey, type SchoolSubMerchant, type SubMerchantRecord } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { ApiError, get, wechatSandbox } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { localDateTime } from '../../lib/school-time';
import { useSandboxAvailable } from '../money/pay-flow';
import { schoolStrings } from './schools-strings';

const SUB_MCHID = /^[0-9]{8,12}$/;
const SUB_APPID = /^wx[0-9a-zA-Z]{16}$/;

/** Whether a refusal is the server's `key` (its message, in either language: the envelope carries no key). */
export const isServerMessage = (e: unknown, key: ServerMessageKey): boolean =>
  e instanceof ApiError && (['zh-CN', 'en'] as const).some((lang) => e.message === serverText(lang, key));

export const subMerchantKey = (schoolId: number) => ['schoolSubMerchant', schoolId] as const;

/** The operator's 收款商户 drawer of one school: the current record, record or change it, withdraw it, the history. */
export function SubMerchantDrawer({ school, onClose }: { school: { id: number; name: string } | null; onClose: () => void }) {
  const s = schoolStrings.use();
  return (
    <Drawer open={school !== null} onClose={onClose} size={640} title={school ? s('merchant_title', { name: school.name }) : ''} destroyOnHidden>
      {school && <SubMerchantPanel school={school} />}
    </Drawer>
  );
}

interface Fields {
  sub_mchid: string;
  sub_appid?: string;
  note?: string;
}

export function SubMerchantPanel({ school }: { school: { id: number; name: string } }) {
  const s = schoolStrings.use();
  const qc = useQueryClient();
  const sandbox = useSandboxAvailable();
  const [form] = Form.useForm<Fields>();
  const [onboarded, setOnboarded] = useState<string | null>(null);
  const q = useQuery({ queryKey: subMerchantKey(school.id), queryFn: () => get('schoolSubMerchant', { school_id: school.id }) });
  const save = useAction('setSchoolSubMerchant', {
    onDone: (d, input) => {
      qc.setQueryData(subMerchantKey(school.id), d);
      form.resetFields();
      setOnboarded(null);
      feedback().message.success(input.sub_mchid === null ? s('withdrawn') : s('recorded'));
    },
    onError: (e) => {
      // the wrapper showed the message; what this drawer shows is stale, so it is read again
      if (isServerMessage(e, 'payments.sub_merchant_changed')) void q.refetch();
    },
  });
  const onboard = useMutation({
    mutationFn: (no: string) => wechatSandbox.onboard(no, school.name),
    onSuccess: (_, no) => {
      setOnboarded(no);
      feedback().message.success(s('sandbox_onboarded', { no }));
    },
    onError: (e) => feedback().message.error(e.message),
  });

  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => void q.refetch()} />;
  const d = q.data;
  const cur = d.current;
  // what the operator saw: the server refuses the change when someone else changed it meanwhile
  const expected_id = cur?.id ?? null;
  const record = (v: Fields) =>
    void save.run({
      school_id: school.id,
      sub_mchid: v.sub_mchid.trim(),
      sub_appid: v.sub_appid?.trim() ? v.sub_appid.trim() : null,
      note: v.note?.trim() ?? '',
      expected_id,
    });
  const withdraw = () =>
    feedback().modal.confirm({
      title: s('withdraw_title', { name: school.name }),
      content: s('withdraw_body'),
      okText: s('withdraw'),
      okButtonProps: { danger: true },
      onOk: () => save.run({ school_id: school.id, sub_mchid: null, note: '', expected_id }),
    });
  const sandboxOnboard = async () => {
    try {
      const { sub_mchid } = await form.validateFields(['sub_mchid']);
      onboard.mutate(sub_mchid.trim());
    } catch {
      // the field says what is wrong
    }
  };

  return (
    <Flex vertical gap={20} data-testid="sub-merchant">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {s('merchant_what')}
      </Typography.Paragraph>
      <Current d={d} onWithdraw={withdraw} busy={save.busy} />
      <div>
        <Typography.Title level={5}>{cur ? s('record_change') : s('record_new')}</Typography.Title>
        <Form<Fields> form={form} layout="vertical" onFinish={record} requiredMark={false}>
          <Form.Item
            name="sub_mchid"
            label={s('sub_mchid')}
            extra={s('sub_mchid_hint')}
            rules={[
              {
                validator: (_, v: string | undefined) =>
                  SUB_MCHID.test((v ?? '').trim()) ? Promise.resolve() : Promise.reject(new Error(s('sub_mchid_invalid'))),
              },
            ]}
          >
            <Input inputMode="numeric" maxLength={12} autoComplete="off" style={{ maxWidth: 260 }} />
          </Form.Item>
          <Form.Item
            name="sub_appid"
            label={s('sub_appid')}
            extra={s('sub_appid_hint')}
            rules={[
              {
                validator: (_, v: string | undefined) =>
                  !v?.trim() || SUB_APPID.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(s('sub_appid_invalid'))),
              },
            ]}
          >
            <Input maxLength={18} autoComplete="off" style={{ maxWidth: 260 }} />
          </Form.Item>
          <Form.Item name="note" label={s('merchant_note')}>
            <Input maxLength={200} showCount />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={save.busy} data-testid="sub-merchant-save">
              {s('record_save')}
            </Button>
            {sandbox && (
              <Button onClick={() => void sandboxOnboard()} loading={onboard.isPending} data-testid="sub-merchant-sandbox">
                {s('sandbox_onboard')}
              </Button>
            )}
          </Space>
          {sandbox && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
              {onboarded ? s('sandbox_onboarded', { no: onboarded }) : s('sandbox_onboard_hint')}
            </Typography.Paragraph>
          )}
        </Form>
      </div>
      <div>
        <Typography.Title level={5}>{s('history')}</Typography.Title>
        <History list={d.history} />
      </div>
    </Flex>
  );
}

function Current({ d, onWithdraw, busy }: { d: SchoolSubMerchant; onWithdraw: () => void; busy: boolean }) {
  const s = schoolStrings.use();
  const cur = d.current;
  if (!cur) {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="sub-merchant-state"
        title={
          <Space size={8} wrap>
            <Tag>{s('merchant_none')}</Tag>
            {s('merchant_none_hint')}
          </Space>
        }
      />
    );
  }
  return (
    <div data-testid="sub-merchant-state">
      <Descriptions
        size="small"
        bordered
        column={1}
        items={[
          { key: 'state', label: s('merchant_state'), children: <Tag color="green">{s('merchant_active')}</Tag> },
          { key: 'no', label: s('sub_mchid'), children: <Typography.Text copyable>{cur.sub_mchid}</Typography.Text> },
          { key: 'appid', label: s('appid'), children: cur.sub_appid ?? '-' },
          { key: 'by', label: s('recorded_by'), children: cur.recorded_by_name ?? '-' },
          { key: 'at', label: s('recorded_at'), children: localDateTime(cur.recorded_at) },
          ...(cur.note ? [{ key: 'note', label: s('note'), children: cur.note }] : []),
        ]}
      />
      <Button danger style={{ marginTop: 12 }} onClick={onWithdraw} loading={busy} data-testid="sub-merchant-withdraw">
        {s('withdraw')}
      </Button>
    </div>
  );
}

function History({ list }: { list: SubMerchantRecord[] }) {
  const s = schoolStrings.use();
  return (
    <Table<SubMerchantRecord>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={list}
      scroll={{ x: 560 }}
      locale={{ emptyText: s('history_empty') }}
      data-testid="sub-merchant-history"
      columns={[
        { title: s('sub_mchid'), key: 'no', width: 120, render: (_, r) => r.sub_mchid },
        { title: s('recorded_at'), key: 'at', width: 140, render: (_, r) => localDateTime(r.recorded_at) },
        {
          title: s('ended_at'),
          key: 'ended',
          width: 140,
          render: (_, r) => (r.ended_at ? localDateTime(r.ended_at) : <Tag color="green">{s('until_now')}</Tag>),
        },
        { title: s('recorded_by'), key: 'by', width: 90, render: (_, r) => r.recorded_by_name ?? '-' },
        { title: s('note'), key: 'note', ellipsis: true, render: (_, r) => r.note || '-' },
      ]}
    />
  );
}
