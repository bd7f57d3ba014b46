import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Card, Flex, Space, Typography } from 'antd';
import { formatFen, type ContractRow, type ParentChild } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { PaymentDialog } from '../money/payment-dialog';
import { StateTag, useUnitsText } from './common';
import { payContract, useChildrenContracts } from './parent-contracts-model';
import { useParentChildren } from '../parent/children';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

/** /parent_contracts: each child's care contracts with state, dates and units left; an unpaid one is paid here by WeChat Pay. */
export default function ParentContracts() {
  const s = contractStrings.use();
  const children = useParentChildren();
  const kids = children.data?.list ?? [];
  return (
    <Card title={s('parent.title')} styles={{ body: { padding: 12 } }}>
      {children.isLoading ? (
        <Loading />
      ) : children.isError ? (
        <LoadError onRetry={() => void children.refetch()} />
      ) : kids.length === 0 ? (
        <EmptyState description={s('parent.no_children')} />
      ) : (
        <ChildrenContracts kids={kids} />
      )}
    </Card>
  );
}

function ChildrenContracts({ kids }: { kids: ParentChild[] }) {
  const s = contractStrings.use();
  const qc = useQueryClient();
  const [paying, setPaying] = useState<ContractRow | null>(null);
  const lists = useChildrenContracts(kids);
  return (
    <Flex vertical gap={16}>
      {kids.map((k, i) => {
        const q = lists[i];
        return (
          <section key={k.id} aria-label={k.name}>
            <Flex align="center" gap={8} style={{ marginBottom: 8 }}>
              <Avatar size={32} src={k.photo_url || undefined} style={{ backgroundColor: k.gender === 2 ? '#eb2f96' : '#1677ff', flex: 'none' }}>
                {k.name.slice(-1)}
              </Avatar>
              <Typography.Text strong style={{ fontSize: 16 }}>
                {k.name}
              </Typography.Text>
              {k.care_class && <Typography.Text type="secondary">{k.care_class.name}</Typography.Text>}
            </Flex>
            {q.isLoading ? (
              <Loading />
            ) : q.isError ? (
              <LoadError onRetry={() => void q.refetch()} />
            ) : (q.data?.list.length ?? 0) === 0 ? (
              <Typography.Paragraph type="secondary" style={{ padding: '8px 0', margin: 0 }}>
                {s('parent.empty')}
              </Typography.Paragraph>
            ) : (
              <Flex vertical gap={8}>
                {q.data!.list.map((c) => (
                  <ContractCard key={c.id} c={c} onPay={() => setPaying(c)} />
                ))}
              </Flex>
            )}
          </section>
        );
      })}
      <PaymentDialog
        open={paying !== null}
        title={paying ? s('parent.pay_title', { no: paying.no }) : ''}
        amountFen={paying?.price_fen ?? 0}
        wechat={paying ? payContract(paying) : undefined}
        phoneChannels
        onPaid={() => {
          feedback().message.success(s('parent.paid'));
          void qc.invalidateQueries({ queryKey: queryKey('studentContractList') });
        }}
        onClose={() => setPaying(null)}
      />
    </Flex>
  );
}

function ContractCard({ c, onPay }: { c: ContractRow; onPay: () => void }) {
  const s = contractStrings.use();
  const unitsText = useUnitsText();
  const row = (label: string, value: React.ReactNode) => (
    <Flex gap={8} justify="space-between">
      <Typography.Text type="secondary" style={{ flex: 'none' }}>
        {label}
      </Typography.Text>
      <span style={{ textAlign: 'right', wordBreak: 'break-all' }}>{value}</span>
    </Flex>
  );
  const left = unitsText(c);
  return (
    <Card size="small" data-testid={`contract-${c.id}`}>
      <Flex justify="space-between" align="start" gap={8} style={{ marginBottom: 8 }}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>{c.package_name}</Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {c.no}
            </Typography.Text>
          </div>
        </div>
        <StateTag state={c.state} />
      </Flex>
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        {row(s('parent.period'), `${c.start_day} ~ ${c.end_day}`)}
        {row(s('parent.amount'), `¥${formatFen(c.price_fen)}`)}
        {left !== '-' && row(s('parent.left'), left)}
      </Space>
      {c.status === 'unpaid' && (
        <Button type="primary" block size="large" style={{ marginTop: 12 }} onClick={onPay}>
          {s('parent.pay')} ¥{formatFen(c.price_fen)}
        </Button>
      )}
    </Card>
  );
}
