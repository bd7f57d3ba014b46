import Button from 'antd-mobile/es/components/button';
import CapsuleTabs from 'antd-mobile/es/components/capsule-tabs';
import List from 'antd-mobile/es/components/list';
import Popup from 'antd-mobile/es/components/popup';
import Tag from 'antd-mobile/es/components/tag';
import FileOutline from 'antd-mobile-icons/es/FileOutline';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../api/http';
import { nextPageOf } from '../../api/query';
import { noticesStrings } from '../../areas/notices/strings';
import { useReadNotice } from '../../areas/notices/use-read-notice';
import { useSchoolClock } from '../../lib/school-time';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { MorePages } from './more-parts';
import { moreStrings } from './more-strings';

const PAGE = 10;

/** /m/parent_notices: the school's notices to this guardian, newest first, unread marked; opening one reads it. */
export default function ParentNoticesPhone() {
  const s = noticesStrings.use();
  const t = moreStrings.use();
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
    <PhonePage onRefresh={() => q.refetch()}>
      <div className="m-section m-tabs">
        <CapsuleTabs activeKey={unreadOnly ? 'unread' : 'all'} onChange={(k) => setUnreadOnly(k === 'unread')}>
          <CapsuleTabs.Tab key="all" title={t('pm.all')} />
          <CapsuleTabs.Tab key="unread" title={unread > 0 ? `${s('parent.only_unread')} · ${unread}` : s('parent.only_unread')} />
        </CapsuleTabs>
      </div>
      {q.isPending ? (
        <PhoneLoading />
      ) : !q.data ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : list.length === 0 ? (
        <PhoneEmpty description={unreadOnly ? s('parent.empty_unread') : s('parent.empty')} />
      ) : (
        <>
          <List className="m-section">
            {list.map((n) => (
              <List.Item
                key={n.id}
                onClick={() => setOpen(n.id)}
                data-testid={`parent-notice-${n.id}`}
                prefix={n.read_at ? undefined : <span className="m-unread-dot" aria-label={s('unread')} />}
                description={
                  <>
                    <div className="m-muted" style={{ margin: '4px 0' }}>
                      {n.summary}
                    </div>
                    <div className="m-row m-muted">
                      <span>{s('parent.from', { author: n.author_name, time: when(n.created_at) })}</span>
                      {n.attachments > 0 && (
                        <span>
                          <FileOutline /> {n.attachments}
                        </span>
                      )}
                    </div>
                  </>
                }
                extra={
                  n.read_at ? (
                    <Tag color="success" fill="outline">
                      {s('read')}
                    </Tag>
                  ) : (
                    <Tag color="warning" fill="outline">
                      {s('unread')}
                    </Tag>
                  )
                }
              >
                <div className="m-row">
                  {n.important && <Tag color="danger">{s('important')}</Tag>}
                  <span className={n.read_at ? 'm-notice-title m-read' : 'm-notice-title'}>{n.title}</span>
                </div>
              </List.Item>
            ))}
          </List>
          <MorePages query={q} />
        </>
      )}
      <Popup
        visible={open !== null}
        onMaskClick={() => setOpen(null)}
        onClose={() => setOpen(null)}
        bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12 }}
        destroyOnClose
      >
        {open !== null && <NoticeSheet id={open} onClose={() => setOpen(null)} />}
      </Popup>
    </PhonePage>
  );
}

/** One notice, read (readInform writes the receipt; the lists are refreshed to show it read). */
function NoticeSheet({ id, onClose }: { id: number; onClose: () => void }) {
  const s = noticesStrings.use();
  const t = moreStrings.use();
  const when = useSchoolClock().dateTime;
  const q = useReadNotice(id);
  return (
    <div className="m-sheet" data-testid="notice-sheet" style={{ maxHeight: '85vh' }}>
      {q.isPending ? (
        <PhoneLoading rows={4} />
      ) : !q.data ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <div className="m-sheet-title">{q.data.title}</div>
          <div className="m-row m-muted" style={{ marginBottom: 12 }}>
            {q.data.important && <Tag color="danger">{s('important')}</Tag>}
            <span>{s('parent.from', { author: q.data.author_name, time: when(q.data.created_at) })}</span>
          </div>
          {/* the API stored this HTML through sanitize-html (no scripts, handlers or unsafe links) */}
          <div className="m-notice-body" dangerouslySetInnerHTML={{ __html: q.data.content }} />
          {q.data.attachment_list.length > 0 && (
            <List header={t('pm.attachment')} style={{ marginTop: 12 }}>
              {q.data.attachment_list.map((a) => (
                <List.Item
                  key={a.id}
                  prefix={<FileOutline />}
                  extra={`${Math.max(1, Math.round(a.size / 1024))} KB`}
                  onClick={() => window.open(a.url, '_blank', 'noopener,noreferrer')}
                >
                  {a.name}
                </List.Item>
              ))}
            </List>
          )}
        </>
      )}
      <Button block size="large" onClick={onClose} style={{ marginTop: 16 }}>
        {t('pm.close')}
      </Button>
    </div>
  );
}
