import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, List, Tag } from 'antd';
import type { StudentComment } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { LoadError } from '../../components/states';
import { useT } from '../../stores/preferences';
import { useSchoolClock } from '../../lib/school-time';
import { studentStrings } from './strings';

/** A student's comments, newest first, paged (`action` studentComments for the admin, teacherStudentGrowth for teachers). */
export function CommentList({
  studentId,
  action,
  canWrite = false,
}: {
  studentId: number;
  action: 'studentComments' | 'teacherStudentGrowth';
  canWrite?: boolean;
}) {
  const t = useT();
  const ss = studentStrings.use();
  const clock = useSchoolClock();
  const [page, setPage] = useState(1);
  const [form] = Form.useForm<{ period: string; content: string }>();
  const q = useQuery({
    queryKey: queryKey(action, { student_id: studentId, page, limit: 10 }),
    queryFn: () => get(action, { student_id: studentId, page, limit: 10 }),
  });
  const comment = useAction('overallComment', {
    success: ss('stu.comment_saved'),
    onDone: async () => {
      form.resetFields();
      setPage(1);
      await q.refetch();
    },
  });
  const write = (v: { period: string; content: string }) =>
    comment.run({ student_id: studentId, period: v.period.trim(), content: v.content.trim() });
  return (
    <>
      {canWrite && (
        <Form form={form} layout="vertical" onFinish={write} style={{ marginBottom: 16 }}>
          <Form.Item name="period" label={ss('stu.period')} rules={[{ required: true, whitespace: true, message: ss('stu.required') }, { max: 30 }]}>
            <Input maxLength={30} placeholder="2026 秋季学期" />
          </Form.Item>
          <Form.Item
            name="content"
            label={ss('stu.content')}
            rules={[{ required: true, whitespace: true, message: ss('stu.required') }, { max: 2000 }]}
          >
            <Input.TextArea maxLength={2000} rows={3} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={comment.busy}>
            {ss('stu.write_comment')}
          </Button>
        </Form>
      )}
      {q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : (
        <List<StudentComment>
          loading={q.isLoading}
          dataSource={q.data?.list}
          locale={{ emptyText: t('common.empty') }}
          pagination={
            q.data && q.data.total > 10 ? { current: page, pageSize: 10, total: q.data.total, onChange: setPage, showSizeChanger: false } : false
          }
          renderItem={(c) => (
            <List.Item key={c.id}>
              <List.Item.Meta
                title={
                  <span>
                    <Tag color={c.kind === 'overall' ? 'blue' : 'green'}>{c.kind === 'overall' ? ss('stu.kind_overall') : ss('stu.kind_growth')}</Tag>
                    {c.period} · {c.author_name} · {clock.dateTime(c.created_at, true)}
                  </span>
                }
                description={<div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{c.content}</div>}
              />
            </List.Item>
          )}
        />
      )}
    </>
  );
}
