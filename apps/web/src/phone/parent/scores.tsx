import Card from 'antd-mobile/es/components/card';
import Tag from 'antd-mobile/es/components/tag';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { ParentExamScore } from '@wantuo/shared';
import { get } from '../../api/http';
import { nextPageOf, queryKey } from '../../api/query';
import { mark } from '../../areas/exams/common';
import { examStrings } from '../../areas/exams/strings';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { ChildGate, MorePages } from './more-parts';

const PAGE_SIZE = 10;

/** /m/parent_scores: the chosen child's published exam scores: score, rank in the class and the class average. */
export default function ParentScoresPhone() {
  const s = examStrings.use();
  const qc = useQueryClient();
  const refresh = () =>
    Promise.all([
      qc.refetchQueries({ queryKey: queryKey('parentChildren') }),
      qc.refetchQueries({ queryKey: queryKey('parentExamScores'), type: 'active' }),
    ]);
  return (
    <PhonePage onRefresh={refresh}>
      <ChildGate empty={s('p.no_children')}>{(kid) => <ChildScores key={kid.id} studentId={kid.id} />}</ChildGate>
    </PhonePage>
  );
}

function ChildScores({ studentId }: { studentId: number }) {
  const s = examStrings.use();
  const q = useInfiniteQuery({
    queryKey: queryKey('parentExamScores', { student_id: studentId, limit: PAGE_SIZE }),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => get('parentExamScores', { student_id: studentId, page: pageParam, limit: PAGE_SIZE }),
    getNextPageParam: nextPageOf,
  });
  if (q.isPending) return <PhoneLoading />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  const list = q.data.pages.flatMap((p) => p.list);
  if (!list.length) return <PhoneEmpty description={s('p.empty')} />;
  return (
    <>
      {list.map((x) => (
        <ScoreCard key={x.exam_id} x={x} />
      ))}
      <MorePages query={q} />
    </>
  );
}

function ScoreCard({ x }: { x: ParentExamScore }) {
  const s = examStrings.use();
  const passed = x.score !== null && x.score >= x.pass_mark;
  return (
    <Card
      className="m-card"
      data-testid={`parent-exam-${x.exam_id}`}
      title={
        <div>
          <div>{x.name}</div>
          <div className="m-muted" style={{ fontWeight: 400 }}>
            {x.subject} · {x.exam_day}
            {x.class_name ? ` · ${x.class_name}` : ''}
          </div>
        </div>
      }
      extra={
        x.absent ? (
          <Tag color="warning">{s('p.absent')}</Tag>
        ) : passed ? (
          <Tag color="success">{s('p.pass')}</Tag>
        ) : (
          <Tag color="danger">{s('p.fail')}</Tag>
        )
      }
    >
      <div className="m-figures">
        <div>
          <div className={x.absent ? 'm-figure' : passed ? 'm-figure m-pass' : 'm-figure m-fail'} data-testid="ps-score">
            {x.absent ? s('p.absent') : mark(x.score)}
          </div>
          <div className="m-figure-label">
            {s('p.score')}（{s('p.of_full', { n: x.full_mark })}）
          </div>
        </div>
        <div>
          <div className="m-figure" data-testid="ps-rank">
            {x.class_rank === null ? '-' : s('p.rank_of', { rank: x.class_rank, n: x.class_count })}
          </div>
          <div className="m-figure-label">{s('p.rank')}</div>
        </div>
        <div>
          <div className="m-figure" data-testid="ps-average">
            {mark(x.class_average)}
          </div>
          <div className="m-figure-label">{s('p.class_average')}</div>
        </div>
      </div>
    </Card>
  );
}
