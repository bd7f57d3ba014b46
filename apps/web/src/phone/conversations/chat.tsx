import ActionSheet from 'antd-mobile/es/components/action-sheet';
import Button from 'antd-mobile/es/components/button';
import Checkbox from 'antd-mobile/es/components/checkbox';
import Tag from 'antd-mobile/es/components/tag';
import TextArea from 'antd-mobile/es/components/text-area';
import PictureOutline from 'antd-mobile-icons/es/PictureOutline';
import MessageOutline from 'antd-mobile-icons/es/MessageOutline';
import { useMutation } from '@tanstack/react-query';
import { CONVERSATION_LIMITS, QUICK_REPLIES, type ConversationInfo, type ConversationMessage, type ConversationSide } from '@wantuo/shared';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { feedback } from '../../api/feedback';
import { upload } from '../../api/http';
import {
  bubbleTime,
  readByOther,
  retractable,
  useAnswersAt,
  useConversation,
  useMarkRead,
  useNow,
  useReadMarks,
  useRetractMessage,
  useSendMessage,
} from '../../areas/conversations/model';
import { conversationsStrings } from '../../areas/conversations/strings';
import { pick } from '../../i18n/messages';
import { useSchoolZone } from '../../lib/school-time';
import { usePreferences } from '../../stores/preferences';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import './chat.css';

/** the photo viewer (and its gesture library), loaded when a photo is first tapped */
const ImageViewer = lazy(() => import('antd-mobile/es/components/image-viewer'));

/** the clock when a bubble's actions are asked for (the window may have closed since the last tick) */
const clockNow = () => Date.now();

/** how long a finger rests on a bubble to open its actions */
const LONG_PRESS_MS = 500;

/**
 * One child's conversation on a phone, for either side: the guardian's (/m/parent_chat) and the staff's
 * (/m/teacher_chat). Bubbles (mine on the right, theirs on the left, the sender and the school's time), photos that
 * open full screen, retractions as a mark, 已读/未读 under my own messages; earlier messages on demand; above the
 * input the office-hours notice (a guardian, outside the school's hours); text, a photo, quick replies of the side and
 * (a guardian) 紧急. My message within 2 minutes: a tap or a long press offers 撤回. Read on opening and on each new
 * message while the page is shown. The live hook (useConversationLive) is the page's.
 */
export function ConversationView({ studentId, side }: { studentId: number; side: ConversationSide }) {
  const s = conversationsStrings.use();
  const { query, head, messages } = useConversation(studentId);
  useMarkRead(studentId, head, messages);
  const end = useRef<HTMLDivElement>(null);
  const newest = messages.length ? messages[messages.length - 1].id : 0;
  // the newest message in view: on opening and when one arrives (an older page loaded does not move the view)
  useEffect(() => {
    if (newest) end.current?.scrollIntoView?.({ block: 'end' });
  }, [newest]);

  if (query.isPending) return <PhoneLoading rows={6} />;
  if (!head) return <PhoneError error={query.error} onRetry={() => void query.refetch()} />;
  const mySide = head.my_side ?? side;
  return (
    <div className="cv" data-testid="conversation">
      <ReadMarks studentId={studentId} head={head} />
      <Members head={head} />
      {query.hasNextPage ? (
        <div className="cv-older">
          <Button
            size="small"
            fill="none"
            color="primary"
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
            data-testid="chat-older"
          >
            {s('chat.older')}
          </Button>
        </div>
      ) : (
        messages.length > 0 && (query.data?.pages.length ?? 0) > 1 && <div className="cv-older cv-muted">{s('chat.no_older')}</div>
      )}
      {messages.length === 0 ? (
        <PhoneEmpty description={mySide === 'family' ? s('chat.empty') : s('chat.empty_school')} />
      ) : (
        <Bubbles head={head} messages={messages} studentId={studentId} />
      )}
      <div ref={end} />
      <InputBar head={head} side={mySide} studentId={studentId} />
    </div>
  );
}

/** The school's read mark kept fresh on a guardian's page (model.ts useReadMarks). */
function ReadMarks({ studentId, head }: { studentId: number; head: ConversationInfo }) {
  useReadMarks(studentId, head);
  return null;
}

function Members({ head }: { head: ConversationInfo }) {
  const s = conversationsStrings.use();
  if (!head.school.length) return null;
  return (
    <div className="cv-members cv-muted" data-testid="chat-members">
      {s('chat.members', { names: head.school.map((m) => m.name).join('、') })}
    </div>
  );
}

function Bubbles({ head, messages, studentId }: { head: ConversationInfo; messages: ConversationMessage[]; studentId: number }) {
  const s = conversationsStrings.use();
  const zone = useSchoolZone();
  const now = useNow();
  const [viewing, setViewing] = useState<string | null>(null);
  const [acting, setActing] = useState<ConversationMessage | null>(null);
  const retract = useRetractMessage(studentId);
  const offer = (m: ConversationMessage) => {
    if (retractable(m, clockNow())) setActing(m);
  };
  return (
    <div className="cv-list" role="log" aria-live="polite">
      {messages.map((m) => (
        <Bubble
          key={m.id}
          m={m}
          time={bubbleTime(m.sent_at, new Date(now), zone)}
          read={m.mine ? readByOther(head, m) : null}
          canRetract={retractable(m, now)}
          onAct={() => offer(m)}
          onView={setViewing}
        />
      ))}
      {viewing !== null && (
        <Suspense fallback={null}>
          <ImageViewer image={viewing} visible onClose={() => setViewing(null)} />
        </Suspense>
      )}
      <ActionSheet
        visible={acting !== null}
        onClose={() => setActing(null)}
        extra={s('chat.retract_hint')}
        cancelText={s('chat.cancel')}
        actions={[{ key: 'retract', text: s('chat.retract'), danger: true, disabled: retract.isPending }]}
        onAction={() => {
          if (acting) retract.mutate(acting.id, { onSuccess: () => feedback().message.success(s('chat.retracted_ok')) });
          setActing(null);
        }}
      />
    </div>
  );
}

function Bubble({
  m,
  time,
  read,
  canRetract,
  onAct,
  onView,
}: {
  m: ConversationMessage;
  time: string;
  /** my message: whether the other side read it */
  read: boolean | null;
  canRetract: boolean;
  onAct: () => void;
  onView: (url: string) => void;
}) {
  const s = conversationsStrings.use();
  const press = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPress = () => {
    if (press.current) clearTimeout(press.current);
    press.current = null;
  };
  useEffect(() => cancelPress, []);
  if (m.retracted_at && m.text === null && m.photo_url === null) {
    return (
      <div className="cv-retracted" data-testid="chat-retracted" data-id={m.id}>
        {m.mine ? s('chat.retracted_me') : s('chat.retracted', { name: m.sender_name })}
      </div>
    );
  }
  const actions = canRetract
    ? {
        onTouchStart: () => {
          cancelPress();
          press.current = setTimeout(onAct, LONG_PRESS_MS);
        },
        onTouchEnd: cancelPress,
        onTouchMove: cancelPress,
        onContextMenu: (e: { preventDefault(): void }) => {
          e.preventDefault();
          onAct();
        },
      }
    : {};
  let body: ReactNode;
  if (m.photo_url) {
    const url = m.photo_url;
    body = (
      <button type="button" className="cv-photo" onClick={() => onView(url)} aria-label={s('chat.photo')} data-testid="chat-photo">
        <img src={url} alt={s('chat.photo')} loading="lazy" />
      </button>
    );
  } else {
    body = (
      <div
        className="cv-text"
        onClick={canRetract ? onAct : undefined}
        role={canRetract ? 'button' : undefined}
        tabIndex={canRetract ? 0 : undefined}
        onKeyDown={canRetract ? (e) => (e.key === 'Enter' || e.key === ' ') && onAct() : undefined}
      >
        {m.text}
      </div>
    );
  }
  return (
    <div
      className={m.mine ? 'cv-row cv-mine' : 'cv-row cv-theirs'}
      data-testid="chat-message"
      data-id={m.id}
      data-side={m.side}
      data-retractable={canRetract ? '1' : undefined}
    >
      <div className="cv-meta">
        <span className="cv-name">{m.sender_name}</span>
        <span>{time}</span>
        {m.urgent && (
          <Tag color="danger" fill="solid">
            {s('chat.urgent')}
          </Tag>
        )}
        {m.quick && <span className="cv-quick">{s('chat.quick')}</span>}
        {m.retracted_at && <Tag color="default">{s('chat.retracted_admin')}</Tag>}
      </div>
      <div className={m.urgent ? 'cv-bubble cv-urgent' : 'cv-bubble'} {...actions}>
        {body}
      </div>
      {read !== null && (
        <div className={read ? 'cv-read cv-read-yes' : 'cv-read'} data-testid="chat-read">
          {read ? s('chat.read') : s('chat.unread')}
        </div>
      )}
    </div>
  );
}

/** The office-hours notice, the text box and its buttons (photo, quick replies, 紧急 for a guardian, send). */
function InputBar({ head, side, studentId }: { head: ConversationInfo; side: ConversationSide; studentId: number }) {
  const s = conversationsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const zone = useSchoolZone();
  const answersAt = useAnswersAt(zone);
  const [text, setText] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [quick, setQuick] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const family = side === 'family';
  const send = useSendMessage(studentId, () => {
    setUrgent(false);
  });
  const photo = useMutation({
    mutationFn: async (f: File) => {
      const fd = new FormData();
      fd.append('file', f);
      return (await upload('upload', fd)).url;
    },
    onSuccess: (url) => send.mutate({ photo_url: url, ...(family && urgent ? { urgent: true } : {}) }),
  });
  const sendText = () => {
    const body = text.trim();
    if (!body) return;
    send.mutate({ text: body, ...(family && urgent ? { urgent: true } : {}) }, { onSuccess: () => setText('') });
  };
  const closed = family && !head.office.open_now;
  return (
    <div className="cv-bar" data-testid="chat-bar">
      {closed && (
        <div className="cv-office" role="status" data-testid="office-hours-notice">
          {head.office.answers_at ? s('chat.office_closed', { at: answersAt(head.office.answers_at) }) : s('chat.office_closed_unknown')}
        </div>
      )}
      <div className="cv-input">
        <TextArea
          aria-label={s('chat.placeholder')}
          placeholder={s('chat.placeholder')}
          value={text}
          onChange={setText}
          maxLength={CONVERSATION_LIMITS.textMax}
          autoSize={{ minRows: 1, maxRows: 4 }}
          data-testid="chat-text"
        />
        <Button color="primary" disabled={!text.trim()} loading={send.isPending && !photo.isPending} onClick={sendText} data-testid="chat-send">
          {s('chat.send')}
        </Button>
      </div>
      <div className="cv-tools">
        <input
          ref={file}
          type="file"
          accept="image/*"
          hidden
          data-testid="chat-photo-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (!f) return;
            if (!f.type.startsWith('image/')) {
              feedback().message.info(s('chat.photo_only_images'));
              return;
            }
            photo.mutate(f);
          }}
        />
        <Button onClick={() => file.current?.click()} loading={photo.isPending} data-testid="chat-photo-add">
          <PictureOutline /> {s('chat.photo')}
        </Button>
        <Button onClick={() => setQuick(true)} data-testid="chat-quick">
          <MessageOutline /> {s('chat.quick')}
        </Button>
        {family && (
          <Checkbox checked={urgent} onChange={setUrgent} data-testid="chat-urgent" className="cv-urgent-toggle">
            {s('chat.urgent_toggle')}
          </Checkbox>
        )}
      </div>
      {family && urgent && <div className="cv-muted cv-urgent-hint">{s('chat.urgent_hint')}</div>}
      <ActionSheet
        visible={quick}
        onClose={() => setQuick(false)}
        cancelText={s('chat.cancel')}
        actions={QUICK_REPLIES[side].map((r, i) => ({ key: String(i), text: pick(lang, r) }))}
        onAction={(a) => {
          setQuick(false);
          send.mutate({ quick_reply: Number(a.key), ...(family && urgent ? { urgent: true } : {}) });
        }}
      />
    </div>
  );
}
