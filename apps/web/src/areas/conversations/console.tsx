import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Checkbox, Col, Dropdown, Grid, Image, Input, Popconfirm, Row, Select, Space, Tag, Typography } from 'antd';
import {
  CONVERSATION_LIMITS,
  QUICK_REPLIES,
  Role,
  type ConversationInfo,
  type ConversationMessage,
  type ConversationRow,
  type OfficeHoursInfo,
} from '@wantuo/shared';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { feedback } from '../../api/feedback';
import { get, upload } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { pick } from '../../i18n/messages';
import { useSchoolZone } from '../../lib/school-time';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { useConversationLive } from './live';
import {
  bubbleTime,
  isMember,
  LIST_KEY,
  readByOther,
  retractable,
  useConversation,
  useMarkRead,
  useNow,
  useOfficeHours,
  useOfficeHoursDraft,
  useRetractMessage,
  useSendMessage,
} from './model';
import { conversationsStrings, WEEKDAY_LABELS } from './strings';
import './console.css';

const PAGE = 20;

/**
 * /principal_chats, /teacher_chats, /A_chats 家长消息 (issue 40): on the left the conversations the signed-in member of
 * staff may read (the admin: the school's), server-paged, searched by a child's name, unread only; on the right the
 * one chosen (?student=): its bubbles (the admin also sees a retracted text, marked 已撤回), the send box with the
 * school's quick replies; an admin is told their reading is logged (one not among the members does not mark it read). The staff member's own
 * office hours below the list. New messages arrive live.
 */
export default function ConversationsConsole() {
  const s = conversationsStrings.use();
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('student')) || null;
  useConversationLive();
  // side by side on a wide screen (the office hours under the list); one column on a phone, the conversation second
  const wide = Grid.useBreakpoint().lg === true;
  return (
    <Row gutter={[16, 16]} className="cc">
      <Col xs={24} lg={9}>
        <Card title={s('list.title')} size="small">
          <ConversationList chosen={chosen} onChoose={(id) => setParams({ student: String(id) })} />
        </Card>
        {wide && <OfficeHoursCard />}
      </Col>
      <Col xs={24} lg={15}>
        {chosen ? (
          <ConversationPanel key={chosen} studentId={chosen} />
        ) : (
          <Card size="small">
            <EmptyState description={s('chat.choose')} />
          </Card>
        )}
      </Col>
      {!wide && (
        <Col xs={24}>
          <OfficeHoursCard />
        </Col>
      )}
    </Row>
  );
}

function ConversationList({ chosen, onChoose }: { chosen: number | null; onChoose: (id: number) => void }) {
  const s = conversationsStrings.use();
  const zone = useSchoolZone();
  const [keyword, setKeyword] = useState('');
  const [unread, setUnread] = useState(false);
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: [...LIST_KEY, 'console', keyword, unread, page],
    queryFn: () => get('conversationList', { page, limit: PAGE, ...(keyword ? { keyword } : {}), ...(unread ? { unread: 1 } : {}) }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={s('list.search')}
          maxLength={30}
          style={{ width: 200, maxWidth: '100%' }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
          data-testid="cc-search"
        />
        <Checkbox
          checked={unread}
          onChange={(e) => {
            setUnread(e.target.checked);
            setPage(1);
          }}
          data-testid="cc-unread"
        >
          {s('list.unread_only')}
        </Checkbox>
      </Space>
      <ServerTable<ConversationRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        rowKey="student_id"
        size="small"
        showHeader={false}
        tableLayout="fixed"
        pagination={{ size: 'small', hideOnSinglePage: true }}
        locale={{ emptyText: <EmptyState description={unread ? s('list.empty_unread') : s('list.empty')} /> }}
        data-testid="cc-list"
        rowClassName={(r) => (r.student_id === chosen ? 'cc-row cc-row-on' : 'cc-row')}
        onRow={(r) => ({ onClick: () => onChoose(r.student_id), 'data-student': r.student_id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            key: 'row',
            render: (_, r) => (
              <div className="cc-list-row">
                <div className="cc-list-main">
                  <Space size={6} wrap>
                    <Typography.Text strong>{r.student_name}</Typography.Text>
                    {r.class_name && <Typography.Text type="secondary">{r.class_name}</Typography.Text>}
                    {r.urgent && <Tag color="red">{s('list.urgent')}</Tag>}
                  </Space>
                  <div className="cc-preview">{r.last ? `${r.last.sender_name}：${r.last.preview || s('list.photo')}` : s('list.no_message')}</div>
                </div>
                <div className="cc-list-side">
                  <div className="cc-muted">{r.last ? bubbleTime(r.last.sent_at, new Date(), zone) : ''}</div>
                  <Badge count={r.unread} overflowCount={99} />
                </div>
              </div>
            ),
          },
        ]}
      />
    </>
  );
}

function ConversationPanel({ studentId }: { studentId: number }) {
  const s = conversationsStrings.use();
  const user = useSession((st) => st.user);
  const { query, head, messages } = useConversation(studentId);
  const member = head ? isMember(head, user?.id) : true;
  useMarkRead(studentId, head, messages, member);
  const end = useRef<HTMLDivElement>(null);
  const newest = messages.length ? messages[messages.length - 1].id : 0;
  useEffect(() => {
    if (newest) end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [newest]);
  if (query.isPending) return <Loading />;
  if (!head) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <Card
      size="small"
      data-testid="cc-conversation"
      title={
        <Space wrap>
          <span>{s('chat.with_family', { name: head.student.name })}</span>
          {head.student.class_name && <Typography.Text type="secondary">{head.student.class_name}</Typography.Text>}
        </Space>
      }
    >
      {/* every read of an admin's is logged (the API lists the school's admins among the members, so always shown) */}
      {user?.role === Role.Admin && (
        <Alert type="warning" showIcon title={s('chat.admin_note')} style={{ marginBottom: 12 }} data-testid="cc-admin-note" />
      )}
      {head.school.length > 0 && <div className="cc-muted cc-members">{s('chat.members', { names: head.school.map((m) => m.name).join('、') })}</div>}
      <div className="cc-messages" role="log" aria-live="polite">
        {query.hasNextPage && (
          <div className="cc-older">
            <Button size="small" type="link" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} data-testid="chat-older">
              {s('chat.older')}
            </Button>
          </div>
        )}
        {messages.length === 0 ? (
          <EmptyState description={s('chat.empty_school')} />
        ) : (
          <Bubbles head={head} messages={messages} studentId={studentId} />
        )}
        <div ref={end} />
      </div>
      <SendBox studentId={studentId} />
    </Card>
  );
}

function Bubbles({ head, messages, studentId }: { head: ConversationInfo; messages: ConversationMessage[]; studentId: number }) {
  const s = conversationsStrings.use();
  const zone = useSchoolZone();
  const now = useNow();
  const retract = useRetractMessage(studentId);
  return (
    <>
      {messages.map((m) => {
        if (m.retracted_at && m.text === null && m.photo_url === null) {
          return (
            <div key={m.id} className="cc-retracted" data-testid="chat-retracted" data-id={m.id}>
              {m.mine ? s('chat.retracted_me') : s('chat.retracted', { name: m.sender_name })}
            </div>
          );
        }
        const canRetract = retractable(m, now);
        return (
          <div
            key={m.id}
            className={m.mine ? 'cc-row-msg cc-mine' : 'cc-row-msg cc-theirs'}
            data-testid="chat-message"
            data-id={m.id}
            data-side={m.side}
          >
            <div className="cc-meta">
              <span className="cc-name">{m.sender_name}</span>
              <span>{bubbleTime(m.sent_at, new Date(now), zone)}</span>
              {m.urgent && <Tag color="red">{s('chat.urgent')}</Tag>}
              {m.quick && <Typography.Text type="secondary">{s('chat.quick')}</Typography.Text>}
              {m.retracted_at && (
                <Tag color="default" data-testid="chat-retracted-admin">
                  {s('chat.retracted_admin')}
                </Tag>
              )}
            </div>
            <div className={['cc-bubble', m.urgent ? 'cc-urgent' : '', m.retracted_at ? 'cc-was-retracted' : ''].join(' ')}>
              {m.photo_url ? <Image src={m.photo_url} alt={s('chat.photo')} width={160} /> : <div className="cc-text">{m.text}</div>}
            </div>
            <Space size={8} className="cc-under">
              {m.mine && (
                <span className={readByOther(head, m) ? 'cc-read cc-read-yes' : 'cc-read'} data-testid="chat-read">
                  {readByOther(head, m) ? s('chat.read') : s('chat.unread')}
                </span>
              )}
              {canRetract && (
                <Popconfirm
                  title={s('chat.retract_hint')}
                  okText={s('chat.retract')}
                  cancelText={s('chat.cancel')}
                  onConfirm={() => retract.mutate(m.id)}
                >
                  <Button type="link" size="small" data-testid="chat-retract">
                    {s('chat.retract')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          </div>
        );
      })}
    </>
  );
}

/** The staff's send box: text, a photo, the school's quick replies. */
function SendBox({ studentId }: { studentId: number }) {
  const s = conversationsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const [text, setText] = useState('');
  const file = useRef<HTMLInputElement>(null);
  const send = useSendMessage(studentId);
  const photo = useMutation({
    mutationFn: async (f: File) => {
      const fd = new FormData();
      fd.append('file', f);
      return (await upload('upload', fd)).url;
    },
    onSuccess: (url) => send.mutate({ photo_url: url }),
  });
  const sendText = () => {
    const body = text.trim();
    if (body) send.mutate({ text: body }, { onSuccess: () => setText('') });
  };
  return (
    <div className="cc-send" data-testid="cc-send">
      <Input.TextArea
        aria-label={s('chat.placeholder')}
        placeholder={s('chat.placeholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={CONVERSATION_LIMITS.textMax}
        autoSize={{ minRows: 2, maxRows: 6 }}
        onPressEnter={(e) => {
          if (!e.shiftKey) {
            e.preventDefault();
            sendText();
          }
        }}
        data-testid="chat-text"
      />
      <Space wrap style={{ marginTop: 8, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Dropdown
            trigger={['click']}
            menu={{
              items: QUICK_REPLIES.school.map((r, i) => ({ key: String(i), label: pick(lang, r) })),
              onClick: ({ key }) => send.mutate({ quick_reply: Number(key) }),
            }}
          >
            <Button data-testid="chat-quick">{s('chat.quick')}</Button>
          </Dropdown>
          <input
            ref={file}
            type="file"
            accept="image/*"
            hidden
            data-testid="chat-photo-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f && f.type.startsWith('image/')) photo.mutate(f);
              else if (f) feedback().message.info(s('chat.photo_only_images'));
            }}
          />
          <Button onClick={() => file.current?.click()} loading={photo.isPending}>
            {s('chat.photo_add')}
          </Button>
        </Space>
        <Button type="primary" disabled={!text.trim()} loading={send.isPending && !photo.isPending} onClick={sendText} data-testid="chat-send">
          {s('chat.send')}
        </Button>
      </Space>
    </div>
  );
}

/** Every half hour of the day, and the value held when it is between them. */
const clockOptions = (held: string) => {
  const all = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
  if (!all.includes(held)) all.push(held);
  return all.sort().map((v) => ({ value: v, label: v }));
};

/** The signed-in staff member's office hours: outside them they are not told of family messages. */
function OfficeHoursCard() {
  const s = conversationsStrings.use();
  const { info, save } = useOfficeHours();
  return (
    <Card title={s('office.title')} size="small" style={{ marginTop: 16 }} data-testid="cc-office">
      {info.isPending ? (
        <Loading />
      ) : !info.data ? (
        <LoadError onRetry={() => void info.refetch()} />
      ) : (
        <OfficeHoursForm key={`${info.data.days.join()}-${info.data.start}-${info.data.end}`} data={info.data} save={save} />
      )}
    </Card>
  );
}

function OfficeHoursForm({ data, save }: { data: OfficeHoursInfo; save: ReturnType<typeof useOfficeHours>['save'] }) {
  const s = conversationsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const { days, setDays, start, setStart, end, setEnd, draft, problem, changed } = useOfficeHoursDraft(data);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Tag color={data.open_now ? 'green' : 'default'} data-testid="office-now">
          {data.open_now ? s('office.open_now') : s('office.closed_now')}
        </Tag>
        {data.is_default && <Typography.Text type="secondary">{s('office.default')}</Typography.Text>}
      </Space>
      <Typography.Text type="secondary">{s('office.hint')}</Typography.Text>
      <Checkbox.Group
        value={days}
        onChange={(v) => setDays(v as number[])}
        options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: pick(lang, WEEKDAY_LABELS[d]) }))}
        data-testid="office-days"
      />
      <Space wrap>
        <span>{s('office.start')}</span>
        <Select aria-label={s('office.start')} value={start} onChange={setStart} options={clockOptions(start)} style={{ width: 100 }} />
        <span>{s('office.end')}</span>
        <Select aria-label={s('office.end')} value={end} onChange={setEnd} options={clockOptions(end)} style={{ width: 100 }} />
      </Space>
      {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
      <Button
        type="primary"
        disabled={!!problem || !changed}
        loading={save.isPending}
        onClick={() => save.mutate(draft, { onSuccess: () => feedback().message.success(s('office.saved')) })}
        data-testid="office-save"
      >
        {s('office.save')}
      </Button>
    </Space>
  );
}
