import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, List, Popconfirm, Tag, Typography } from 'antd';
import { useState } from 'react';
import { get, post } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { PickupCodeCard } from './code-card';
import { pickupStrings } from './strings';

/** /parent_pickup: the guardian's rotating code and share links for the children's pick-up people. */
export default function ParentPickupPage() {
  const pt = pickupStrings.use();
  const qc = useQueryClient();
  const links = useQuery({ queryKey: ['pickupShareLinks'], queryFn: () => get('pickupShareLinks') });
  const [made, setMade] = useState<Record<number, string>>({});
  const [texted, setTexted] = useState<Record<number, boolean>>({});
  const [copied, setCopied] = useState<number | null>(null);

  const create = async (personId: number) => {
    const res = await post('pickupShareLink', { pickup_person_id: personId });
    setMade((m) => ({ ...m, [personId]: res.url }));
    setTexted((m) => ({ ...m, [personId]: res.sent }));
    await qc.invalidateQueries({ queryKey: ['pickupShareLinks'] });
  };
  const copy = async (personId: number) => {
    await navigator.clipboard?.writeText(made[personId]).catch(() => undefined);
    setCopied(personId);
  };

  return (
    <Flex vertical gap={12} style={{ maxWidth: 480, margin: '0 auto' }}>
      <PickupCodeCard queryKey={['pickupCode']} load={() => get('pickupCode')} />
      <Card size="small" title={pt('pickup.share_title')}>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {pt('pickup.share_hint')}
        </Typography.Paragraph>
        {links.isLoading && <Loading />}
        {links.isError && <LoadError onRetry={() => links.refetch()} />}
        {links.data && links.data.list.length === 0 && <EmptyState description={pt('pickup.share_empty')} />}
        {links.data && links.data.list.length > 0 && (
          <List
            dataSource={links.data.list}
            renderItem={(p) => (
              <List.Item data-testid="pickup-person" data-person={p.pickup_person_id}>
                <Flex vertical gap={6} style={{ width: '100%' }}>
                  <Flex justify="space-between" wrap gap={4}>
                    <Typography.Text strong>
                      {p.name}（{p.relation}）· {p.students.map((s) => s.name).join('、')}
                    </Typography.Text>
                    {p.link ? <Tag color="green">{pt('pickup.share_active')}</Tag> : <Tag>{pt('pickup.share_none')}</Tag>}
                  </Flex>
                  {made[p.pickup_person_id] && (
                    <Typography.Text copyable={false} code data-testid="pickup-link" style={{ wordBreak: 'break-all' }}>
                      {made[p.pickup_person_id]}
                    </Typography.Text>
                  )}
                  {made[p.pickup_person_id] && texted[p.pickup_person_id] && (
                    <Alert type="success" showIcon title={pt('pickup.share_texted', { mobile: p.mobile })} data-testid="pickup-link-sent" />
                  )}
                  {copied === p.pickup_person_id && <Alert type="success" showIcon title={pt('pickup.share_copied')} />}
                  <Flex gap={8} wrap>
                    <Button onClick={() => void create(p.pickup_person_id)} data-testid="pickup-link-create">
                      {p.link ? pt('pickup.share_renew') : pt('pickup.share_create')}
                    </Button>
                    {made[p.pickup_person_id] && (
                      <Button onClick={() => void copy(p.pickup_person_id)} data-testid="pickup-link-copy">
                        {pt('pickup.share_copy')}
                      </Button>
                    )}
                    {p.link && (
                      <Popconfirm
                        title={pt('pickup.share_revoke_confirm')}
                        onConfirm={async () => {
                          await post('pickupRevoke', { link_id: p.link!.id });
                          setMade(({ [p.pickup_person_id]: _, ...rest }) => rest);
                          await qc.invalidateQueries({ queryKey: ['pickupShareLinks'] });
                        }}
                      >
                        <Button danger data-testid="pickup-link-revoke">
                          {pt('pickup.share_revoke')}
                        </Button>
                      </Popconfirm>
                    )}
                  </Flex>
                </Flex>
              </List.Item>
            )}
          />
        )}
      </Card>
    </Flex>
  );
}
