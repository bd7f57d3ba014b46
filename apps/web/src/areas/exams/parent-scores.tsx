import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Tag, Typography } from 'antd';
import type { ParentExamScore } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { ChildSwitcher } from '../parent/children-gate';
import { mark } from './common';
import { examStrings } from './strings';
import './exams.css';
import { nextPageOf, queryKey } from '../../api/query';

const PAGE_SIZE = 10;

/** /parent_scores: a child's published exam scores on the phone: score, rank in the class and the class average. */
export default function ParentScores() {
  const s = examStrings.use();
  const children = useQuery({ queryKey: queryKey('parentChildren'), queryFn: () => get('parentChildren') });
  const kids = children.data?.list ?? [];
  const [current, setCurrent] = useState<number | null>(null);
  if (children.isLoading) return <Loading />;
  if (children.isError) return <LoadError onRetry={() => void children.refetch()} />;
  if (!kids.length)
    return (
      <Card>
        <EmptyState description={s('p.no_children')} />
      </Card>
    );
  const kid = kids.find((k) => k.id === current) ?? kids[0];
  return (
    <Flex vertical gap={12} className="parent-scores" style={{ maxWidth: 720 }}>
      <ChildSwitcher kids={kids} value={kid.id} onChange={(id) => setCurrent(id)} />
      <ChildScores studentId={kid.id} />
    </Flex>
  );
}

function ChildScores({ studentId }: { studentId: number }) {
  const s = examStrings.use();
  const q = useInfiniteQuery({
    queryKey: ['parentExamScores', studentId],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => get('parentExamScores', { student_id: studentId, page: pageParam, limit: PAGE_SIZE }),
    getNextPageParam: nextPageOf,
  });
  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => void q.refetch()} />;
  const list = q.data?.pages.flatMap((p) => p.list) ?? [];
  if (!list.length)
    return (
      <Card>
        <EmptyState description={s('p.empty')} />
      </Card>
    );
  return (
    <>
      {list.map((x) => (
        <ScoreCard key={x.exam_id} x={x} />
      ))}
      {q.hasNextPage && (
        <Button block size="large" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          {s('p.more')}
        </Button>
      )}
    </>
  );
}

function ScoreCard({ x }: { x: ParentExamScore }) {
  const s = examStrings.use();
  const passed = x.score !== null && x.score >= x.pass_mark;
  return (
    <Card size="small" data-testid={`parent-exam-${x.exam_id}`}>
      <Flex justify="space-between" align="start" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong style={{ fontSize: 16 }}>
            {x.name}
          </Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              {x.subject} · {x.exam_day}
              {x.class_name ? ` · ${x.class_name}` : ''}
            </Typography.Text>
          </div>
        </div>
        {x.absent ? (
          <Tag color="orange">{s('p.absent')}</Tag>
        ) : passed ? (
          <Tag color="green">{s('p.pass')}</Tag>
        ) : (
          <Tag color="red">{s('p.fail')}</Tag>
        )}
      </Flex>
      <Flex justify="space-around" style={{ marginTop: 12, textAlign: 'center' }}>
        <div>
          <div className="ps-figure" style={{ color: x.absent ? undefined : passed ? '#389e0d' : '#cf1322' }} data-testid="ps-score">
            {x.absent ? s('p.absent') : mark(x.score)}
          </div>
          <div className="ps-label">
            {s('p.score')}（{s('p.of_full', { n: x.full_mark })}）
          </div>
        </div>
        <div>
          <div className="ps-figure" data-testid="ps-rank">
            {x.class_rank === null ? '-' : s('p.rank_of', { rank: x.class_rank, n: x.class_count })}
          </div>
          <div className="ps-label">{s('p.rank')}</div>
        </div>
        <div>
          <div className="ps-figure" data-testid="ps-average">
            {mark(x.class_average)}
          </div>
          <div className="ps-label">{s('p.class_average')}</div>
        </div>
      </Flex>
    </Card>
  );
}
