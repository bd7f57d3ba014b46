import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import type { ClassReportStatus } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { reportsStrings } from '../../areas/reports/strings';
import { useClassReportStatus } from '../../areas/reports/use-comment-editor';
import { useSchoolToday } from '../../lib/school-time';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneEmpty } from '../ui/states';
import { teacherPhoneStrings } from './strings';
import './teacher.css';

const CommentSheet = lazy(() => import('./comment-sheet'));

type Row = ClassReportStatus['list'][number];

/**
 * 每日评语 on the teacher's phone (a teacher: the classes they have a duty in; a head teacher: their classes): today's
 * children with whose daily report went out and who lacks a comment; a child's 评语 opens as a bottom sheet.
 */
export default function TeacherComments() {
  const s = reportsStrings.use();
  const tp = teacherPhoneStrings.use();
  const today = useSchoolToday();
  const [classId, setClassId] = useState<number | undefined>();
  const [writing, setWriting] = useState<Row | null>(null);
  const q = useClassReportStatus(classId, today);
  return (
    <PhonePage onRefresh={() => q.refetch()}>
      <QueryView query={q} isEmpty={(d) => d.classes.length === 0} empty={s('no_class')}>
        {(d) => (
          <>
            {d.classes.length > 1 && (
              <div className="m-chips" role="group" aria-label={tp('tp.class_pick')}>
                {d.classes.map((c) => (
                  <button
                    key={c.id}
                    type="button"
                    className={d.class_id === c.id ? 'm-chip m-chip-on' : 'm-chip'}
                    aria-pressed={d.class_id === c.id}
                    onClick={() => setClassId(c.id)}
                  >
                    {c.name}
                  </button>
                ))}
              </div>
            )}
            <div className="m-select-bar" data-testid="report-counts">
              <span>
                {d.classes.find((c) => c.id === d.class_id)?.name ?? ''} · {d.day}
              </span>
            </div>
            <div className="m-select-bar">
              <span>{s('counts', { n: d.counts.students, sent: d.counts.sent, lacks: d.counts.lacks_comment })}</span>
            </div>
            {d.list.length === 0 ? (
              <PhoneEmpty description={s('no_students')} />
            ) : (
              <List className="m-section">
                {d.list.map((r) => (
                  <List.Item
                    key={r.student_id}
                    data-testid="report-status-row"
                    extra={
                      <Button
                        color={r.has_comment ? 'default' : 'primary'}
                        fill={r.has_comment ? 'outline' : 'solid'}
                        onClick={() => setWriting(r)}
                        data-testid="comment-open"
                        aria-label={`${s('write')} ${r.student_name}`}
                      >
                        {s('write')}
                      </Button>
                    }
                    description={
                      <span>
                        {r.on_leave && <Tag fill="outline">{s('on_leave')}</Tag>}{' '}
                        <Tag color={r.sent_at ? 'success' : 'default'} fill="outline">
                          {r.sent_at ? s('sent') : s('not_sent')}
                        </Tag>{' '}
                        {r.has_comment && (
                          <Tag color="primary" fill="outline">
                            {s('has_comment')}
                          </Tag>
                        )}{' '}
                        {r.lacks.map((l) => (
                          <Tag key={l} color={l === 'comment' ? 'danger' : 'warning'} style={{ marginRight: 4 }}>
                            {s(`lack.${l}`)}
                          </Tag>
                        ))}
                      </span>
                    }
                  >
                    <strong>{r.student_name}</strong>
                  </List.Item>
                ))}
              </List>
            )}
            {writing && (
              <Suspense fallback={null}>
                <CommentSheet studentId={writing.student_id} studentName={writing.student_name} day={d.day} onClose={() => setWriting(null)} />
              </Suspense>
            )}
          </>
        )}
      </QueryView>
    </PhonePage>
  );
}
