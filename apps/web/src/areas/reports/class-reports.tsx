import { Button, Card, Flex, List, Select, Space, Tag, Typography } from 'antd';
import { type ClassReportStatus } from '@wantuo/shared';
import { useState } from 'react';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import CommentPicker from './comment-picker';
import { reportsStrings } from './strings';
import { useClassReportStatus } from './use-comment-editor';

type Row = ClassReportStatus['list'][number];

/**
 * /teacher_comments (teachers: the classes they have a duty in) and /A_reports (head teachers: their classes): today's
 * children with whose daily report went out and who lacks a comment, and the quick-comment picker per child.
 */
export default function ClassReports() {
  const s = reportsStrings.use();
  const today = useSchoolToday();
  const [classId, setClassId] = useState<number | undefined>();
  const [writing, setWriting] = useState<Row | null>(null);
  const q = useClassReportStatus(classId, today);
  const d = q.data;
  return (
    <Flex vertical gap={12} style={{ maxWidth: 720, margin: '0 auto', width: '100%' }}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !d ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : d.classes.length === 0 ? (
        <Card>
          <EmptyState description={s('no_class')} />
        </Card>
      ) : (
        <>
          <Select
            aria-label={s('class')}
            value={d.class_id ?? undefined}
            onChange={(v) => setClassId(v)}
            options={d.classes.map((c) => ({ value: c.id, label: c.name }))}
            style={{ width: '100%' }}
          />
          <Typography.Text type="secondary" data-testid="report-counts">
            {d.day} · {s('counts', { n: d.counts.students, sent: d.counts.sent, lacks: d.counts.lacks_comment })}
          </Typography.Text>
          <Card size="small">
            {d.list.length === 0 ? (
              <EmptyState description={s('no_students')} />
            ) : (
              <List
                dataSource={d.list}
                renderItem={(r) => (
                  <List.Item
                    data-testid="report-status-row"
                    actions={[
                      <Button
                        key="c"
                        size="small"
                        type={r.has_comment ? 'default' : 'primary'}
                        onClick={() => setWriting(r)}
                        data-testid="comment-open"
                      >
                        {s('write')}
                      </Button>,
                    ]}
                  >
                    <Space size={6} wrap>
                      <Typography.Text strong>{r.student_name}</Typography.Text>
                      {r.on_leave && <Tag>{s('on_leave')}</Tag>}
                      <Tag color={r.sent_at ? 'green' : 'default'}>{r.sent_at ? s('sent') : s('not_sent')}</Tag>
                      {r.lacks.map((l) => (
                        <Tag key={l} color={l === 'comment' ? 'red' : 'orange'}>
                          {s(`lack.${l}`)}
                        </Tag>
                      ))}
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </>
      )}
      {writing && d && (
        <CommentPicker studentId={writing.student_id} studentName={writing.student_name} day={d.day} onClose={() => setWriting(null)} />
      )}
    </Flex>
  );
}
