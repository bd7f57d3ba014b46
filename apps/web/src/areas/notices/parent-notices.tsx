import { PaperClipOutlined } from '@ant-design/icons';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Flex, Segmented, Tag, Typography } from 'antd';
import { useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { ReadNotice } from './staff-notices';
import { noticesStrings } from './strings';
import { nextPageOf } from '../../api/query';

const PAGE = 10;

/** /parent_notices: the school's notices to this guardian, newest first, unread marked; opening one reads it. */
export default function ParentNotices() {
  const s = noticesStrings.use();
  const when = useSchoolClock().dateTime;
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const q = useInfiniteQuery({
    queryKey: ['notices', 'parentInformList', unreadOnly],
    queryFn: ({ pageParam }) => get('parentInformList', { page: pageParam, limit: PAGE, ...(unreadOnly ? { unread: 1 } : {}) }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  const list = q.data?.pages.flatMap((p) => p.list) ?? [];
  const unread = q.data?.pages[0]?.unread ?? 0;

  return (
    <Flex vertical gap={12} style={{ maxWidth: 720 }}>
      <Flex justify="space-between" align="center">
        <Segmented
          value={unreadOnly ? 'unread' : 'all'}
          onChange={(v) => setUnreadOnly(v === 'unread')}
          options={[
            { value: 'all', label: s('parent.title') },
            { value: 'unread', label: s('parent.only_unread') },
          ]}
        />
        {unread > 0 && <Badge count={s('parent.unread_n', { n: unread })} style={{ backgroundColor: '#ff4d4f' }} />}
      </Flex>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : list.length === 0 ? (
        <Card>
          <EmptyState description={unreadOnly ? s('parent.empty_unread') : s('parent.empty')} />
        </Card>
      ) : (
        <>
          {list.map((n) => (
            <Card key={n.id} size="small" className="notice-card" onClick={() => setOpen(n.id)} data-testid={`parent-notice-${n.id}`} hoverable>
              <Flex gap={8} align="center">
                {!n.read_at && <span className="notice-unread-dot" aria-label={s('unread')} />}
                <Typography.Text strong ellipsis style={{ flex: 1, fontSize: 15 }}>
                  {n.title}
                </Typography.Text>
                {n.important && (
                  <Tag color="red" style={{ marginInlineEnd: 0 }}>
                    {s('important')}
                  </Tag>
                )}
              </Flex>
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: '6px 0' }}>
                {n.summary}
              </Typography.Paragraph>
              <Flex justify="space-between" align="center">
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {s('parent.from', { author: n.author_name, time: when(n.created_at) })}
                </Typography.Text>
                <Flex gap={8} align="center">
                  {n.attachments > 0 && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      <PaperClipOutlined /> {n.attachments}
                    </Typography.Text>
                  )}
                  {n.read_at ? <Tag color="green">{s('read')}</Tag> : <Tag color="orange">{s('unread')}</Tag>}
                </Flex>
              </Flex>
            </Card>
          ))}
          {q.hasNextPage && (
            <Button block loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()} style={{ minHeight: 40 }}>
              {s('more')}
            </Button>
          )}
        </>
      )}
      {open !== null && <ReadNotice id={open} onClose={() => setOpen(null)} />}
    </Flex>
  );
}
