import { useQuery } from '@tanstack/react-query';
import { Avatar, Card, List, Tag, Typography } from 'antd';
import type { ParentChild } from '@wantuo/shared';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';

/**
 * The parent's home: their children with day school and care class. Each child's live day (picked up, arrived,
 * dinner, tutoring, left) joins this list with the daily flow.
 */
export default function ParentHome() {
  const t = useT();
  const q = useQuery({ queryKey: ['parentChildren'], queryFn: () => get<{ list: ParentChild[] }>('parentChildren') });
  return (
    <Card title={t('parent.children')}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : !q.data?.list.length ? (
        <EmptyState description={t('parent.children_empty')} />
      ) : (
        <List
          itemLayout="horizontal"
          dataSource={q.data.list}
          renderItem={(c) => (
            <List.Item>
              <List.Item.Meta
                avatar={
                  <Avatar size={48} src={c.photo_url || undefined} style={{ backgroundColor: c.gender === 2 ? '#eb2f96' : '#1677ff' }}>
                    {c.name.slice(-1)}
                  </Avatar>
                }
                title={
                  <span>
                    {c.name} <Tag>{c.relation}</Tag>
                  </span>
                }
                description={
                  <>
                    <div>{[c.day_school, c.grade, c.class_name].filter(Boolean).join(' ') || '-'}</div>
                    <Typography.Text type="secondary">
                      {c.care_class ? t('parent.care_class', { name: c.care_class.name, head: c.care_class.head_teacher_name ?? '-' }) : t('parent.no_care_class')}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
