import Badge from 'antd-mobile/es/components/badge';
import CapsuleTabs from 'antd-mobile/es/components/capsule-tabs';
import List from 'antd-mobile/es/components/list';
import SearchBar from 'antd-mobile/es/components/search-bar';
import Tag from 'antd-mobile/es/components/tag';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ConversationRow } from '@wantuo/shared';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { nextPageOf } from '../../api/query';
import { useConversationLive } from '../../areas/conversations/live';
import { bubbleTime, LIST_KEY } from '../../areas/conversations/model';
import { conversationsStrings } from '../../areas/conversations/strings';
import { useSchoolZone } from '../../lib/school-time';
import { MorePages } from '../parent/more-parts';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import './chat.css';

const PAGE = 20;

/**
 * /m/teacher_chats (今日 → 家长消息): the conversations of the children the teacher is responsible for, as the server
 * orders them (unread first), paged by the server; a child's name searched, unread only; a row opens its chat.
 */
export default function TeacherChatsPhone() {
  const [params] = useSearchParams();
  const student = Number(params.get('student'));
  // a console's link to one conversation (/teacher_chats?student=7, offered on a phone as this page): that chat
  if (Number.isInteger(student) && student > 0) return <Navigate to={`/m/teacher_chat?student=${student}`} replace />;
  return <ChatList />;
}

function ChatList() {
  const s = conversationsStrings.use();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [unreadOnly, setUnreadOnly] = useState(false);
  useConversationLive();
  const q = useInfiniteQuery({
    queryKey: [...LIST_KEY, 'phone', keyword, unreadOnly],
    queryFn: ({ pageParam }) =>
      get('conversationList', { page: pageParam, limit: PAGE, ...(keyword ? { keyword } : {}), ...(unreadOnly ? { unread: 1 } : {}) }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    placeholderData: keepPreviousData,
  });
  const rows = q.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <PhonePage onRefresh={() => q.refetch()}>
      <div className="m-section">
        <SearchBar
          placeholder={s('list.search')}
          maxLength={30}
          onSearch={(v) => setKeyword(v.trim())}
          onClear={() => setKeyword('')}
          data-testid="chats-search"
        />
      </div>
      <div className="m-section m-tabs">
        <CapsuleTabs activeKey={unreadOnly ? 'unread' : 'all'} onChange={(k) => setUnreadOnly(k === 'unread')}>
          <CapsuleTabs.Tab key="all" title={s('list.all')} />
          <CapsuleTabs.Tab key="unread" title={s('list.unread_only')} />
        </CapsuleTabs>
      </div>
      {q.isPending ? (
        <PhoneLoading />
      ) : !q.data ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : rows.length === 0 ? (
        <PhoneEmpty description={unreadOnly ? s('list.empty_unread') : s('list.empty')} />
      ) : (
        <>
          <List className="m-section" data-testid="chats-list">
            {rows.map((r) => (
              <ChatRow key={r.student_id} row={r} onOpen={() => navigate(`/m/teacher_chat?student=${r.student_id}`)} />
            ))}
          </List>
          <MorePages query={q} />
        </>
      )}
    </PhonePage>
  );
}

function ChatRow({ row, onOpen }: { row: ConversationRow; onOpen: () => void }) {
  const s = conversationsStrings.use();
  const zone = useSchoolZone();
  return (
    <List.Item
      className="cv-list-row"
      onClick={onOpen}
      data-testid="chat-row"
      data-student={row.student_id}
      description={
        <div className="cv-preview">{row.last ? `${row.last.sender_name}：${row.last.preview || s('list.photo')}` : s('list.no_message')}</div>
      }
      extra={
        <div style={{ textAlign: 'right' }}>
          <div className="cv-muted">{row.last ? bubbleTime(row.last.sent_at, new Date(), zone) : ''}</div>
          {row.unread > 0 && <Badge content={row.unread > 99 ? '99+' : row.unread} data-testid="chat-row-unread" />}
        </div>
      }
    >
      <div className="cv-entry-row">
        <span>{row.student_name}</span>
        {row.class_name && <span className="cv-muted">{row.class_name}</span>}
        {row.urgent && (
          <Tag color="danger" data-testid="chat-row-urgent">
            {s('list.urgent')}
          </Tag>
        )}
      </div>
    </List.Item>
  );
}
