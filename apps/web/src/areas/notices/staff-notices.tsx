import { PaperClipOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, Flex, Grid, Input, Modal, Segmented, Tag, Typography } from 'antd';
import { Role, type NoticeItem } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { ServerTable } from '../../components/server-table';
import { useSession } from '../../stores/session';
import { useSchoolClock } from '../../lib/school-time';
import { AudienceTag, NoticeBody, ScopeText } from './common';
import { ComposeDrawer } from './compose';
import { ReceiptsDrawer } from './receipts';
import { noticesStrings } from './strings';
import { useReadNotice } from './use-read-notice';

const PAGE = 10;
type Box = 'sent' | 'received' | 'class';

/**
 * Notices for staff: /AClassNotice (head teacher), /teacher_notices (teachers), /principal_notices (the admin). The
 * sent list with read counts (receipts in a drawer, with the reminder), the received list (opening one marks it
 * read), for a head teacher the notices others sent to their class or the school (the receipts of their class's
 * guardians), and the compose drawer.
 */
export default function StaffNotices() {
  const s = noticesStrings.use();
  const when = useSchoolClock().dateTime;
  const role = useSession((st) => st.user?.role);
  const isAdmin = role === Role.Admin;
  const listAction = isAdmin ? 'adminInformList' : role === Role.HeadTeacher ? 'headTeacherInformList' : 'teacherInformList';
  const infoAction = isAdmin ? 'adminInformInfo' : 'headTeacherInformInfo';
  const [box, setBox] = useState<Box>('sent');
  const [keyword, setKeyword] = useState('');
  const [important, setImportant] = useState(false);
  const [page, setPage] = useState(1);
  const [composing, setComposing] = useState(false);
  const [receipts, setReceipts] = useState<number | null>(null);
  const [reading, setReading] = useState<number | null>(null);
  const filtered = !!keyword || important;
  const q = useQuery({
    queryKey: ['notices', listAction, box, keyword, important, page],
    queryFn: () =>
      get(listAction, {
        page,
        limit: PAGE,
        ...(isAdmin ? {} : { box }),
        ...(keyword ? { keyword } : {}),
        ...(important ? { important: 1 } : {}),
      }),
  });
  const sent = isAdmin || box === 'sent';
  // the received box shows the caller's own read state; the sent and class boxes open the receipts
  const received = !isAdmin && box === 'received';
  const openRow = (id: number) => (received ? setReading(id) : setReceipts(id));
  // a phone (375 px): one column with the counts under the title instead of a table to scroll sideways
  const compact = !Grid.useBreakpoint().md;
  const titleCell = (n: NoticeItem) => (
    <Flex vertical style={{ maxWidth: compact ? undefined : 320, minWidth: 0 }}>
      <Flex gap={6} align="center">
        {received && !n.read_at && <span className="notice-unread-dot" aria-label={s('unread')} />}
        <Typography.Text strong ellipsis>
          {n.title}
        </Typography.Text>
        {n.important && <Tag color="red">{s('important')}</Tag>}
        {n.attachments > 0 && <PaperClipOutlined />}
      </Flex>
      <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
        {n.summary}
      </Typography.Text>
      {compact && (
        <Flex gap={6} wrap align="center" style={{ fontSize: 12, marginTop: 2 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <ScopeText n={n} />
          </Typography.Text>
          {sent ? (
            <Typography.Text
              data-testid={`notice-read-${n.id}`}
              style={{ fontSize: 12 }}
              type={n.read_count === n.recipients ? 'success' : undefined}
            >
              {s('col.read')} {s('read_of', { read: n.read_count, total: n.recipients })}
            </Typography.Text>
          ) : !received ? null : n.read_at ? (
            <Tag color="green">{s('read')}</Tag>
          ) : (
            <Tag>{s('unread')}</Tag>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {when(n.created_at)}
          </Typography.Text>
        </Flex>
      )}
    </Flex>
  );

  return (
    <Card
      title={isAdmin ? s('page.title_school') : s('page.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setComposing(true)} data-testid="notice-compose">
          {s('compose')}
        </Button>
      }
      styles={{ body: { padding: 12 } }}
    >
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        {!isAdmin && (
          <Segmented<Box>
            value={box}
            onChange={(v) => {
              setBox(v);
              setPage(1);
            }}
            options={[
              { value: 'sent', label: s('tab.sent') },
              { value: 'received', label: s('tab.received') },
              ...(role === Role.HeadTeacher ? [{ value: 'class' as const, label: s('tab.class') }] : []),
            ]}
          />
        )}
        <Input.Search
          allowClear
          placeholder={s('search')}
          maxLength={30}
          style={{ width: 200 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
        />
        <Checkbox
          checked={important}
          onChange={(e) => {
            setImportant(e.target.checked);
            setPage(1);
          }}
        >
          {s('filter.important')}
        </Checkbox>
      </Flex>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : q.data!.total === 0 && page === 1 ? (
        <EmptyState description={filtered ? s('empty.filtered') : sent ? s('empty.sent') : received ? s('empty.received') : s('empty.class')} />
      ) : (
        <ServerTable<NoticeItem>
          query={q}
          page={page}
          onPage={setPage}
          pageSize={PAGE}
          size="middle"
          scroll={compact ? undefined : { x: 'max-content' }}
          onRow={(n) =>
            ({ onClick: () => openRow(n.id), style: { cursor: 'pointer' }, 'data-testid': `notice-row-${n.id}` }) as React.HTMLAttributes<HTMLElement>
          }
          columns={
            compact
              ? [{ title: s('col.title'), key: 'title', render: (_: unknown, n: NoticeItem) => titleCell(n) }]
              : [
                  { title: s('col.title'), key: 'title', render: (_: unknown, n: NoticeItem) => titleCell(n) },
                  {
                    title: s('col.scope'),
                    key: 'scope',
                    render: (_, n) => (
                      <Flex vertical gap={2}>
                        <span>
                          <ScopeText n={n} />
                        </span>
                        <span>
                          <AudienceTag audience={n.audience} />
                        </span>
                      </Flex>
                    ),
                  },
                  ...(sent
                    ? [
                        {
                          title: s('col.read'),
                          key: 'read',
                          render: (_: unknown, n: NoticeItem) => (
                            <Typography.Text data-testid={`notice-read-${n.id}`} type={n.read_count === n.recipients ? 'success' : undefined}>
                              {s('read_of', { read: n.read_count, total: n.recipients })}
                            </Typography.Text>
                          ),
                        },
                        {
                          title: s('col.sms'),
                          key: 'sms',
                          render: (_: unknown, n: NoticeItem) =>
                            !n.sms_count
                              ? s('sms_none')
                              : n.sms_at && new Date(n.sms_at) > new Date(n.created_at)
                                ? s('sms_held', { n: n.sms_count, time: when(n.sms_at) })
                                : s('sms_queued', { n: n.sms_count }),
                        },
                      ]
                    : received
                      ? [
                          {
                            title: s('col.state'),
                            key: 'state',
                            render: (_: unknown, n: NoticeItem) => (n.read_at ? <Tag color="green">{s('read')}</Tag> : <Tag>{s('unread')}</Tag>),
                          },
                        ]
                      : []),
                  ...(isAdmin || !sent ? [{ title: s('col.author'), key: 'author', dataIndex: 'author_name' }] : []),
                  { title: s('col.time'), key: 'time', render: (_: unknown, n: NoticeItem) => when(n.created_at) },
                  {
                    title: s('col.actions'),
                    key: 'actions',
                    render: (_: unknown, n: NoticeItem) => (
                      <Button
                        type="link"
                        size="small"
                        onClick={(e) => {
                          e.stopPropagation();
                          openRow(n.id);
                        }}
                      >
                        {received ? s('open') : s('receipts')}
                      </Button>
                    ),
                  },
                ]
          }
        />
      )}
      <ComposeDrawer open={composing} onClose={() => setComposing(false)} isAdmin={isAdmin} />
      <ReceiptsDrawer id={receipts} infoAction={infoAction} onClose={() => setReceipts(null)} />
      {reading !== null && <ReadNotice id={reading} onClose={() => setReading(null)} />}
    </Card>
  );
}

/** A received notice, opened: readInform answers it and marks it read. */
export function ReadNotice({ id, onClose }: { id: number; onClose: () => void }) {
  const s = noticesStrings.use();
  const when = useSchoolClock().dateTime;
  const q = useReadNotice(id);
  return (
    <Modal open onCancel={onClose} footer={<Button onClick={onClose}>{s('close')}</Button>} title={q.data?.title ?? ''} destroyOnHidden width={640}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <>
          <Flex gap={6} wrap style={{ marginBottom: 12 }}>
            {q.data.important && <Tag color="red">{s('important')}</Tag>}
            <Typography.Text type="secondary">{s('parent.from', { author: q.data.author_name, time: when(q.data.created_at) })}</Typography.Text>
          </Flex>
          <NoticeBody html={q.data.content} attachments={q.data.attachment_list} />
        </>
      )}
    </Modal>
  );
}
