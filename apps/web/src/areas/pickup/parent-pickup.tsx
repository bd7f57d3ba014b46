import { Alert, Button, Card, Flex, List, Popconfirm, Tag, Typography } from 'antd';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { PickupCodeCard } from './code-card';
import { pickupStrings } from './strings';
import { useShareLinks } from './use-share-links';

/** /parent_pickup: the guardian's rotating code and share links for the children's pick-up people. */
export default function ParentPickupPage() {
  const pt = pickupStrings.use();
  const { links, made, texted, copied, create, copy, revoke } = useShareLinks();

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
                      <Popconfirm title={pt('pickup.share_revoke_confirm')} onConfirm={() => revoke(p.pickup_person_id, p.link!.id)}>
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
