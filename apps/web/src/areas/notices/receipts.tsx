import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Divider, Drawer, Flex, Popconfirm, Progress, Segmented, Tag, Typography } from 'antd';
import type { NoticeReceipt } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { ServerTable } from '../../components/server-table';
import { useSchoolClock } from '../../lib/school-time';
import { AudienceTag, NoticeBody, ScopeText } from './common';
import { noticesStrings } from './strings';

const PAGE = 20;
type Filter = 'all' | 'read' | 'unread';

/**
 * A sent notice with its read receipts (headTeacherInformInfo, adminInformInfo for the admin): who read it and when,
 * who has not, filtered and paged by the server; the button texting the unread (once an hour at most).
 */
export function ReceiptsDrawer({
  id,
  infoAction,
  onClose,
}: {
  id: number | null;
  infoAction: 'headTeacherInformInfo' | 'adminInformInfo';
  onClose: () => void;
}) {
  const s = noticesStrings.use();
  const when = useSchoolClock().dateTime;
  const qc = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['notices', 'info', infoAction, id, filter, page],
    queryFn:
      id === null ? skipToken : () => get(infoAction, { id, page, limit: PAGE, ...(filter === 'all' ? {} : { read: filter === 'read' ? 1 : 0 }) }),
    // receipts come in while the drawer is open: a light poll rather than a socket channel of its own
    refetchInterval: 15_000,
  });
  const n = q.data?.notice;
  // the class's read count (class_only): the receipts shown unfiltered, less the unread
  const classRead = filter === 'all' && q.data ? q.data.receipts.total - q.data.unread : filter === 'read' ? q.data?.receipts.total : undefined;
  const receipts = { ...q, data: q.data?.receipts } as unknown as Parameters<typeof ServerTable<NoticeReceipt>>[0]['query'];

  // a refusal (too soon, everyone read it) is shown by the request wrapper; the list is read again either way
  const refresh = () => void qc.invalidateQueries({ queryKey: ['notices'] });
  const remindAction = useAction('remindInform', {
    success: (r) => (r.held ? s('rc.reminded_held', { n: r.reminded, time: when(r.sms_at) }) : s('rc.reminded', { n: r.reminded })),
    onDone: refresh,
    onError: refresh,
  });
  const reminding = remindAction.busy;
  const remind = async () => {
    if (id === null) return;
    await remindAction.run({ id });
  };

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={n?.title ?? s('rc.title')}
      size={Math.min(640, typeof window === 'undefined' ? 640 : window.innerWidth)}
      destroyOnHidden
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data || !n ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <>
          <Flex gap={6} wrap style={{ marginBottom: 8 }}>
            {n.important && <Tag color="red">{s('important')}</Tag>}
            <AudienceTag audience={n.audience} />
            <Tag>
              <ScopeText n={n} />
            </Tag>
            <Typography.Text type="secondary">
              {n.author_name} · {when(n.created_at)}
            </Typography.Text>
          </Flex>
          <NoticeBody html={n.content} attachments={n.attachment_list} />
          <Divider style={{ margin: '16px 0 12px' }} />
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {s('rc.title')}
          </Typography.Title>
          {q.data.class_only ? (
            <Flex vertical gap={4} style={{ margin: '0 0 12px' }}>
              <Typography.Text data-testid="receipt-summary">
                {s('rc.class_summary', { read: classRead ?? '…', unread: q.data.unread })}
              </Typography.Text>
              <Typography.Text type="secondary">{s('rc.class_only')}</Typography.Text>
            </Flex>
          ) : (
            <>
              <Progress percent={n.recipients ? Math.round((n.read_count / n.recipients) * 100) : 0} size="small" />
              <Flex justify="space-between" align="center" wrap gap={8} style={{ margin: '8px 0 12px' }}>
                <Typography.Text data-testid="receipt-summary">
                  {s('rc.summary', { read: n.read_count, unread: q.data.unread, total: n.recipients })}
                </Typography.Text>
                {q.data.unread === 0 ? (
                  <Tag color="green">{s('rc.all_read')}</Tag>
                ) : q.data.next_remind_at ? (
                  <Typography.Text type="secondary">{s('rc.remind_next', { time: when(q.data.next_remind_at) })}</Typography.Text>
                ) : (
                  <Popconfirm
                    title={s('rc.remind_confirm', { n: q.data.unread })}
                    onConfirm={() => void remind()}
                    okText={s('rc.remind')}
                    cancelText={s('cancel')}
                  >
                    <Button loading={reminding} data-testid="notice-remind">
                      {s('rc.remind')}
                    </Button>
                  </Popconfirm>
                )}
              </Flex>
            </>
          )}
          <Segmented<Filter>
            value={filter}
            onChange={(v) => {
              setFilter(v);
              setPage(1);
            }}
            options={[
              { value: 'all', label: s('rc.all') },
              { value: 'read', label: s('rc.read') },
              { value: 'unread', label: s('rc.unread') },
            ]}
            style={{ marginBottom: 8 }}
          />
          <ServerTable<NoticeReceipt>
            query={receipts}
            page={page}
            onPage={setPage}
            pageSize={PAGE}
            rowKey="user_id"
            size="small"
            locale={{ emptyText: s('rc.empty') }}
            pagination={{ size: 'small', hideOnSinglePage: true }}
            columns={[
              {
                title: s('rc.name'),
                key: 'name',
                render: (_, r) => (
                  <Flex vertical>
                    <span>{r.name}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {r.kind === 'staff' ? s('rc.staff') : (r.child_names ?? s('rc.guardian'))}
                    </Typography.Text>
                  </Flex>
                ),
              },
              {
                title: s('col.state'),
                key: 'read',
                align: 'right',
                render: (_, r) =>
                  r.read_at ? (
                    <Tag color="green" data-testid={`receipt-read-${r.user_id}`}>
                      {s('read_at', { time: when(r.read_at) })}
                    </Tag>
                  ) : (
                    <Tag data-testid={`receipt-unread-${r.user_id}`}>{s('unread')}</Tag>
                  ),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
