import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Drawer, Flex, Form, Input, Pagination, Select, Space, Typography, Upload } from 'antd';
import { HOMEWORK_MAX_DAYS, HOMEWORK_MAX_FILES, Role, type Homework, type HomeworkAttachment } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { newRequestId } from '../../lib/request-id';
import { useSchoolToday } from '../../lib/school-time';
import { Attachments, Counts, KindTag } from './common';
import { HomeworkMarking } from './marking';
import { homeworkStrings } from './strings';
import './homework.css';
import { queryKey } from '../../api/query';

const PAGE_SIZE = 10;

/** The caller's classes homework may be set for: care classes (head or duty teacher) and, for teachers, teaching classes. */
function useOwnClasses() {
  const role = useSession((x) => x.user?.role);
  const care = useQuery({ queryKey: queryKey('teacherWantuoInfo'), queryFn: () => get('teacherWantuoInfo') });
  const teaching = useQuery({ queryKey: queryKey('teachManage'), queryFn: () => get('teachManage'), enabled: role === Role.Teacher });
  const options = [
    ...(care.data?.classes ?? []).map((c) => ({ value: `care:${c.id}`, label: `${c.name}（晚托班）` })),
    ...(teaching.data?.classes ?? []).filter((c) => c.status === 1).map((c) => ({ value: `teaching:${c.id}`, label: `${c.name}（兴趣班）` })),
  ];
  return { options, loading: care.isLoading || (role === Role.Teacher && teaching.isLoading) };
}

interface FormValues {
  target: string;
  title: string;
  content: string;
  due: Dayjs;
}

function IssueDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const s = homeworkStrings.use();
  const today = useSchoolToday();
  const [form] = Form.useForm<FormValues>();
  const [files, setFiles] = useState<HomeworkAttachment[]>([]);
  const [uploading, setUploading] = useState(false);
  const [requestId, setRequestId] = useState(newRequestId);
  const issue = useAction('issueHomeWork', {
    success: (h) => s('form.issued', { n: h.students }),
    invalidates: ['classHomeWorks'],
    onDone: () => {
      form.resetFields();
      setFiles([]);
      setRequestId(newRequestId());
      onClose();
    },
  });
  const classes = useOwnClasses();

  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    // the target is `care:<id>` or `teaching:<id>` (the options above)
    const [target, id] = v.target.split(':');
    const kind = target === 'teaching' ? 'teaching' : 'care';
    await issue.run({
      kind,
      class_id: Number(id),
      title: v.title,
      content: v.content,
      attachments: files,
      due_day: v.due.format('YYYY-MM-DD'),
      request_id: requestId,
    });
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={s('teacher.issue')}
      size={Math.min(480, typeof window === 'undefined' ? 480 : window.innerWidth)}
      footer={
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>{s('cancel')}</Button>
          <Button type="primary" loading={issue.busy} onClick={() => void save()}>
            {s('form.submit')}
          </Button>
        </Flex>
      }
    >
      {classes.loading ? (
        <Loading />
      ) : classes.options.length === 0 ? (
        <EmptyState description={s('form.no_classes')} />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ target: classes.options[0]?.value, due: dayjs(today).add(1, 'day') }}>
          <Form.Item name="target" label={s('form.class')} rules={[{ required: true, message: s('required') }]}>
            <Select options={classes.options} />
          </Form.Item>
          <Form.Item name="title" label={s('form.title')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 50 }]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="content" label={s('form.content')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 2000 }]}>
            <Input.TextArea rows={4} maxLength={2000} showCount />
          </Form.Item>
          <Form.Item name="due" label={s('form.due_day')} rules={[{ required: true, message: s('required') }]}>
            <DatePicker
              style={{ width: '100%' }}
              inputReadOnly
              disabledDate={(d) => d.format('YYYY-MM-DD') < today || d.isAfter(dayjs(today).add(HOMEWORK_MAX_DAYS, 'day'))}
            />
          </Form.Item>
          <Form.Item label={s('form.files')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Attachments files={files} />
              <Upload
                showUploadList={false}
                disabled={files.length >= HOMEWORK_MAX_FILES}
                customRequest={async ({ file, onSuccess, onError }) => {
                  const fd = new FormData();
                  fd.append('file', file as Blob);
                  setUploading(true);
                  try {
                    const res = await upload('upload', fd);
                    setFiles((prev) => [...prev, { url: res.url, name: res.name.slice(0, 100) }]);
                    onSuccess?.(res);
                  } catch (e) {
                    onError?.(e as Error);
                  } finally {
                    setUploading(false);
                  }
                }}
              >
                <Button loading={uploading} disabled={files.length >= HOMEWORK_MAX_FILES}>
                  {s('form.upload')}
                </Button>
              </Upload>
            </Space>
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
}

/** /teacher_homework: the homework of the teacher's classes (newest first, paged), set homework, open one to mark it. */
export default function TeacherHomework() {
  const s = homeworkStrings.use();
  const [page, setPage] = useState(1);
  const [issuing, setIssuing] = useState(false);
  const [open, setOpen] = useState<Homework | null>(null);
  const q = useQuery({
    queryKey: queryKey('classHomeWorks', { page, limit: PAGE_SIZE }),
    queryFn: () => get('classHomeWorks', { page, limit: PAGE_SIZE }),
  });

  return (
    <Flex vertical gap={12} className="hw-page">
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {s('teacher.title')}
        </Typography.Title>
        <Button type="primary" onClick={() => setIssuing(true)}>
          {s('teacher.issue')}
        </Button>
      </Flex>
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : !q.data?.list.length ? (
        <Card>
          <EmptyState description={s('teacher.empty')} />
        </Card>
      ) : (
        <>
          {q.data.list.map((h) => (
            <Card key={h.id} size="small" className="hw-card" hoverable onClick={() => setOpen(h)} title={h.title} extra={<KindTag kind={h.kind} />}>
              <Typography.Text>{h.class_name}</Typography.Text>
              <Typography.Text type="secondary"> · {s('due', { day: h.due_day })}</Typography.Text>
              <div>
                <Counts h={h} />
              </div>
            </Card>
          ))}
          <Pagination
            align="center"
            current={page}
            pageSize={PAGE_SIZE}
            total={q.data.total}
            onChange={setPage}
            showSizeChanger={false}
            hideOnSinglePage
          />
        </>
      )}
      <IssueDrawer open={issuing} onClose={() => setIssuing(false)} />
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open?.title}
        size={Math.min(480, typeof window === 'undefined' ? 480 : window.innerWidth)}
      >
        {open && <HomeworkMarking homeworkId={open.id} />}
      </Drawer>
    </Flex>
  );
}
