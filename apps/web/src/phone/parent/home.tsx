import Avatar from 'antd-mobile/es/components/avatar';
import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import Tag from 'antd-mobile/es/components/tag';
import BillOutline from 'antd-mobile-icons/es/BillOutline';
import CalendarOutline from 'antd-mobile-icons/es/CalendarOutline';
import ContentOutline from 'antd-mobile-icons/es/ContentOutline';
import EditSOutline from 'antd-mobile-icons/es/EditSOutline';
import GiftOutline from 'antd-mobile-icons/es/GiftOutline';
import HistogramOutline from 'antd-mobile-icons/es/HistogramOutline';
import SoundOutline from 'antd-mobile-icons/es/SoundOutline';
import SystemQRcodeOutline from 'antd-mobile-icons/es/SystemQRcodeOutline';
import { useQueryClient } from '@tanstack/react-query';
import type { ParentChild } from '@wantuo/shared';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { localTime, useSchoolToday, useSchoolZone } from '../../lib/school-time';
import { EVENT_LABEL } from '../../areas/flow/event-labels';
import { flowStrings } from '../../areas/flow/strings';
import { useFlowLive } from '../../areas/flow/use-flow-live';
import { queryKey } from '../../api/query';
import { childDays, useChildDay } from '../../areas/parent/child-day';
import { useParentChildren } from '../../areas/parent/children';
import { useChosenChild } from '../../areas/parent/chosen-child';
import { parentStrings } from '../../areas/parent/strings';
import { phoneStrings } from '../strings';
import { flowLabel, flowMobileTag } from '../../areas/flow/flow-look';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneChildSwitcher } from './child-switcher';
import { todayStrings, type TodayKey } from './today-strings';
import './today.css';

/** The pages of 今日 that are not tabs, in the order a parent looks for them. */
const ENTRIES: ReadonlyArray<{ to: string; label: TodayKey; icon: ReactNode }> = [
  { to: '/m/parent_report', label: 'pt.report', icon: <ContentOutline /> },
  { to: '/m/parent_pickup', label: 'pt.pickup', icon: <SystemQRcodeOutline /> },
  { to: '/m/parent_meals', label: 'pt.meals', icon: <CalendarOutline /> },
  { to: '/m/parent_homework', label: 'pt.homework', icon: <EditSOutline /> },
  { to: '/m/parent_notices', label: 'pt.notices', icon: <SoundOutline /> },
  { to: '/m/parent_scores', label: 'pt.scores', icon: <HistogramOutline /> },
  { to: '/m/parent_points', label: 'pt.points', icon: <GiftOutline /> },
  { to: '/m/parent_contracts', label: 'pt.owed', icon: <BillOutline /> },
];

/** /m/parent (今日): each child's day as it happens (live), the child the other pages are about, and those pages. */
export default function ParentHomePhone() {
  const tp = parentStrings.use();
  const tt = todayStrings.use();
  const client = useQueryClient();
  const q = useParentChildren();
  const today = useSchoolToday();
  const { live } = useFlowLive((e) => void client.invalidateQueries(childDays(e.student_id)));
  const navigate = useNavigate();
  const kids = q.data?.list ?? [];
  const [child, choose] = useChosenChild(kids);
  return (
    <PhonePage
      right={live ? <span className="m-muted">{tt('pt.live')}</span> : undefined}
      onRefresh={() => Promise.all([q.refetch(), client.invalidateQueries({ queryKey: queryKey('clockingInInfo') })])}
    >
      <QueryView query={q} isEmpty={(d) => d.list.length === 0} empty={tp('parent.children_empty')} rows={4}>
        {(d) => (
          <>
            {d.list.map((c) => (
              <ChildCard key={c.id} child={c} date={today} chosen={d.list.length > 1 && c.id === child?.id} />
            ))}
            <PhoneChildSwitcher kids={d.list} value={child?.id} onChange={choose} />
            <nav className="m-section m-entries" aria-label={tt('pt.entries')}>
              {ENTRIES.map((e) => (
                <button key={e.to} type="button" className="m-entry" onClick={() => navigate(e.to)}>
                  <span className="m-entry-icon" aria-hidden>
                    {e.icon}
                  </span>
                  {tt(e.label)}
                </button>
              ))}
            </nav>
          </>
        )}
      </QueryView>
    </PhonePage>
  );
}

/** One child: name, care class, today's state and what happened so far. */
function ChildCard({ child, date, chosen }: { child: ParentChild; date: string; chosen: boolean }) {
  const tp = parentStrings.use();
  return (
    <Card className={chosen ? 'child-card m-chosen' : 'child-card'} data-student={child.id}>
      <div className="m-child-head">
        <Avatar
          src={child.photo_url || ''}
          style={{ '--size': '48px', '--border-radius': '24px', flex: 'none' }}
          fallback={
            <span className="m-avatar" style={{ background: child.gender === 2 ? '#eb2f96' : '#1677ff' }}>
              {child.name.slice(-1)}
            </span>
          }
        />
        <div style={{ minWidth: 0 }}>
          <div className="m-child-name">{child.name}</div>
          <div className="m-sub">
            {child.care_class
              ? tp('parent.care_class', { name: child.care_class.name, head: child.care_class.head_teacher_name ?? '-' })
              : tp('parent.no_care_class')}
          </div>
        </div>
      </div>
      <ChildDay child={child} date={date} />
    </Card>
  );
}

function ChildDay({ child, date }: { child: ParentChild; date: string }) {
  const t = phoneStrings.use();
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const q = useChildDay(child.id, date);
  if (q.isPending)
    return (
      <div className="m-child-state m-muted" role="status">
        <DotLoading color="primary" /> {t('m.loading')}
      </div>
    );
  if (!q.data)
    return (
      <div className="m-child-state m-muted" role="alert">
        <span>{t('m.load_failed')}</span>
        <Button onClick={() => void q.refetch()}>{t('m.retry')}</Button>
      </div>
    );
  const d = q.data;
  return (
    <div className="child-today">
      <div className="m-child-state">
        <Tag color={flowMobileTag(d.state)} className="child-state" round>
          {tf(flowLabel(d.state))}
        </Tag>
        {d.left_with && <span>{tf('parent.left_with', { name: d.left_with.name, relation: d.left_with.relation })}</span>}
      </div>
      {d.events.length === 0 ? (
        <div className="m-muted">{tf('parent.no_events')}</div>
      ) : (
        <ol className="m-steps">
          {d.events.map((e, i) => (
            <li key={i} className={'voided' in e && e.voided ? 'm-void' : undefined}>
              <time>{localTime(e.at, tz)}</time>
              <span>{tf(EVENT_LABEL[e.type] ?? 'parent.ev_other')}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
