import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Pagination, Select, Typography } from 'antd';
import type { TeachManageAnswer, TeachingSession } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { SessionStateTag } from './common';
import { teachingStrings } from './strings';

const PAGE = 10;

/**
 * Every lesson of one of the teacher's classes (teachingClassSection, paged), with its state and roll call: a lesson
 * of today or before (not cancelled) opens its roll call, to take a missed one or correct it. Made for a phone.
 */
export function ClassLessons({ classes, onCall }: { classes: TeachManageAnswer['classes']; onCall: (s: TeachingSession) => void }) {
  const s = teachingStrings.use();
  const today = useSchoolToday();
  const [picked, setPicked] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const classId = picked ?? classes[0]?.id ?? null;
  const q = useQuery({
    queryKey: queryKey('teachingClassSection', { class_id: classId!, page, limit: PAGE }),
    queryFn: () => get('teachingClassSection', { class_id: classId!, page, limit: PAGE }),
    enabled: classId !== null,
  });
  if (classId === null) return null;
  return (
    <Card title={s('roll.lessons')} styles={{ body: { padding: 12 } }} data-testid="class-lessons">
      <Flex vertical gap={8}>
        {classes.length > 1 && (
          <Select
            style={{ width: '100%', maxWidth: 360 }}
            aria-label={s('roll.lessons_class')}
            value={classId}
            onChange={(v) => {
              setPicked(v);
              setPage(1);
            }}
            options={classes.map((c) => ({ value: c.id, label: c.name }))}
          />
        )}
        {q.isLoading ? (
          <Loading />
        ) : q.isError ? (
          <LoadError message={q.error.message} onRetry={() => void q.refetch()} />
        ) : !q.data?.list.length ? (
          <EmptyState description={s('roll.lessons_none')} />
        ) : (
          <>
            {q.data.list.map((x) => (
              <Flex
                key={x.id}
                justify="space-between"
                align="center"
                gap={8}
                data-testid="class-lesson"
                style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}
              >
                <div style={{ minWidth: 0 }}>
                  <Typography.Text strong>{x.lesson_no ? s('roll.lesson_no', { n: x.lesson_no }) : ''}</Typography.Text>{' '}
                  <SessionStateTag state={x.state} />
                  <div>
                    <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                      {`${x.day} ${x.start_time}-${x.end_time}${x.room_name ? ` · ${x.room_name}` : ''}`}
                    </Typography.Text>
                  </div>
                  {x.roll_call && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {s('roll.counts', x.roll_call)}
                    </Typography.Text>
                  )}
                </div>
                {x.state !== 'cancelled' && x.day <= today && <Button onClick={() => onCall(x)}>{s('roll.pick')}</Button>}
              </Flex>
            ))}
            {q.data.total > PAGE && (
              <Pagination simple current={page} pageSize={PAGE} total={q.data.total} onChange={setPage} style={{ alignSelf: 'center' }} />
            )}
          </>
        )}
      </Flex>
    </Card>
  );
}
