import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { AddExamInput, EXAM_SUBJECTS, type Exam, type ExamListAnswer } from '@wantuo/shared';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { get, postRead } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { zodRule } from '../../forms';
import { ServerTable } from '../../components/server-table';
import { useSchoolToday } from '../../lib/school-time';
import { mark, useExamApi, useExamClasses } from './common';
import { examStrings } from './strings';

const PAGE_SIZE = 20;

/**
 * /principal_exams (admin: every exam of the school, a table), /teacher_exams and /A_exams (a teacher: the exams of
 * own classes, cards for the phone): filters, new exam, edit, delete (admin, confirmed), and the way to the scores.
 */
export default function ExamsList() {
  const s = examStrings.use();
  const api = useExamApi();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  // the admin picks several of each (POST studentExamList), a teacher one (GET teacherStudentExamList)
  const [subjects, setSubjects] = useState<string[]>([]);
  const [classIds, setClassIds] = useState<number[]>([]);
  const [editing, setEditing] = useState<Exam | 'new' | null>(null);
  const classes = useExamClasses(api.admin);
  const base = { page, limit: PAGE_SIZE, ...(keyword ? { keyword } : {}) };
  const adminInput = { ...base, ...(subjects.length ? { subjects } : {}), ...(classIds.length ? { class_ids: classIds } : {}) };
  const teacherInput = { ...base, ...(subjects[0] ? { subject: subjects[0] } : {}), ...(classIds[0] ? { class_id: classIds[0] } : {}) };
  const q = useQuery({
    queryKey: api.admin ? queryKey('studentExamList', adminInput) : queryKey('teacherStudentExamList', teacherInput),
    queryFn: () => (api.admin ? postRead('studentExamList', adminInput) : get('teacherStudentExamList', teacherInput)),
  });
  const filtered = Boolean(keyword || subjects.length || classIds.length);
  /** the admin picks several of each, a teacher's list takes one */
  const multi = { mode: 'multiple' as const, maxTagCount: 'responsive' as const, ...(api.admin ? {} : { maxCount: 1 }) };
  const open = (e: Exam) => navigate(`${api.scoresPath}?id=${e.id}`);
  const del = useAction('delExam', { success: s('del.done'), invalidates: [api.list] });
  const remove = (e: Exam) => del.run({ id: e.id, version: e.version, confirm: true });

  const filters = (
    <Flex gap={8} wrap>
      <Input.Search
        allowClear
        placeholder={s('list.keyword')}
        style={{ width: 180 }}
        onSearch={(v) => {
          setKeyword(v.trim());
          setPage(1);
        }}
      />
      <Select<string[]>
        allowClear
        {...multi}
        data-testid="exam-filter-subject"
        placeholder={s('list.subject')}
        style={{ minWidth: 120, maxWidth: 260 }}
        value={subjects}
        onChange={(v) => {
          setSubjects(v);
          setPage(1);
        }}
        options={EXAM_SUBJECTS.map((x) => ({ value: x, label: x }))}
      />
      <Select<number[]>
        allowClear
        {...multi}
        data-testid="exam-filter-class"
        placeholder={s('list.class')}
        style={{ minWidth: 140, maxWidth: 300 }}
        value={classIds}
        onChange={(v) => {
          setClassIds(v);
          setPage(1);
        }}
        options={(classes.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        loading={classes.isLoading}
        status={classes.isError ? 'error' : undefined}
      />
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="exam-add">
        {s('list.add')}
      </Button>
    </Flex>
  );
  const stateTag = (e: Exam) => (e.published_at ? <Tag color="green">{s('published')}</Tag> : <Tag>{s('unpublished')}</Tag>);

  return (
    <Flex vertical gap={12}>
      <Card size="small">{filters}</Card>
      {api.admin ? (
        <Card size="small">
          <ServerTable<Exam>
            query={q}
            page={page}
            onPage={setPage}
            pageSize={PAGE_SIZE}
            scroll={{ x: 900 }}
            locale={{ emptyText: <EmptyState description={s(filtered ? 'list.empty_filtered' : 'list.empty')} /> }}
            columns={[
              { title: s('col.name'), dataIndex: 'name', render: (v: string, e) => <Typography.Link onClick={() => open(e)}>{v}</Typography.Link> },
              { title: s('col.subject'), dataIndex: 'subject', width: 90 },
              { title: s('col.day'), dataIndex: 'exam_day', width: 110 },
              { title: s('col.full'), dataIndex: 'full_mark', width: 70 },
              { title: s('col.classes'), key: 'classes', render: (_, e) => e.classes.map((c) => c.name).join('、') },
              { title: s('col.scored'), key: 'scored', width: 80, render: (_, e) => s('scored_of', { n: e.scored + e.absent }) },
              { title: s('col.average'), dataIndex: 'average', width: 80, render: (v: number | null) => mark(v) },
              { title: s('col.state'), key: 'state', width: 90, render: (_, e) => stateTag(e) },
              {
                title: s('col.actions'),
                key: 'actions',
                width: 200,
                render: (_, e) => (
                  <Space size={4}>
                    <Button size="small" type="link" onClick={() => open(e)}>
                      {s('act.scores')}
                    </Button>
                    <Button size="small" type="link" onClick={() => setEditing(e)}>
                      {s('act.edit')}
                    </Button>
                    <Popconfirm
                      title={s('del.title', { name: e.name })}
                      description={s('del.body', { n: e.scored + e.absent })}
                      okText={s('act.delete')}
                      okButtonProps={{ danger: true }}
                      cancelText={s('cancel')}
                      onConfirm={() => remove(e)}
                    >
                      <Button size="small" type="link" danger>
                        {s('act.delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      ) : (
        <TeacherCards query={q} filtered={filtered} page={page} onPage={setPage} onOpen={open} onEdit={setEditing} stateTag={stateTag} />
      )}
      {editing && (
        <ExamForm
          exam={editing === 'new' ? null : editing}
          classes={classes.data ?? []}
          action={editing === 'new' ? api.add : api.edit}
          onClose={() => setEditing(null)}
          onSaved={(e) => {
            setEditing(null);
            if (editing === 'new') open(e);
          }}
        />
      )}
    </Flex>
  );
}

function TeacherCards({
  query,
  filtered,
  page,
  onPage,
  onOpen,
  onEdit,
  stateTag,
}: {
  query: ReturnType<typeof useQuery<ExamListAnswer>>;
  filtered: boolean;
  page: number;
  onPage: (p: number) => void;
  onOpen: (e: Exam) => void;
  onEdit: (e: Exam) => void;
  stateTag: (e: Exam) => React.ReactNode;
}) {
  const s = examStrings.use();
  if (query.isLoading) return <Loading />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const list = query.data?.list ?? [];
  if (!list.length)
    return (
      <Card size="small">
        <EmptyState description={s(filtered ? 'list.empty_filtered' : 'list.empty')} />
      </Card>
    );
  const total = query.data?.total ?? 0;
  return (
    <Flex vertical gap={8}>
      {list.map((e) => (
        <Card key={e.id} size="small" data-testid={`exam-${e.id}`}>
          <Flex justify="space-between" align="start" gap={8}>
            <div style={{ minWidth: 0 }}>
              <Typography.Text strong style={{ fontSize: 16 }}>
                {e.name}
              </Typography.Text>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                  {e.subject} · {e.exam_day} · {s('col.full')} {e.full_mark}
                </Typography.Text>
              </div>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                  {e.classes.map((c) => c.name).join('、')} · {s('col.scored')} {e.scored + e.absent} · {s('col.average')} {mark(e.average)}
                </Typography.Text>
              </div>
            </div>
            {stateTag(e)}
          </Flex>
          <Flex gap={8} style={{ marginTop: 10 }}>
            <Button type="primary" block style={{ minHeight: 44 }} onClick={() => onOpen(e)}>
              {s('act.scores')}
            </Button>
            <Button block style={{ minHeight: 44 }} onClick={() => onEdit(e)}>
              {s('act.edit')}
            </Button>
          </Flex>
        </Card>
      ))}
      {total > PAGE_SIZE && (
        <Flex justify="center" gap={8}>
          <Button disabled={page === 1} onClick={() => onPage(page - 1)}>
            ‹
          </Button>
          <Typography.Text type="secondary" style={{ lineHeight: '32px' }}>
            {page} / {Math.ceil(total / PAGE_SIZE)}
          </Typography.Text>
          <Button disabled={page * PAGE_SIZE >= total} onClick={() => onPage(page + 1)}>
            ›
          </Button>
        </Flex>
      )}
    </Flex>
  );
}

interface FormValues {
  name: string;
  subject: string;
  exam_day: dayjs.Dayjs;
  full_mark: number;
  pass_mark?: number | null;
  class_ids: number[];
}

function ExamForm({
  exam,
  classes,
  action,
  onClose,
  onSaved,
}: {
  exam: Exam | null;
  classes: Array<{ id: number; name: string }>;
  action: ReturnType<typeof useExamApi>['add' | 'edit'];
  onClose: () => void;
  onSaved: (e: Exam) => void;
}) {
  const s = examStrings.use();
  const today = useSchoolToday();
  const [form] = Form.useForm<FormValues>();
  const api = useExamApi();
  const save = useAction(action, { success: s('saved'), invalidates: [api.list], onDone: onSaved });
  // an exam's classes stay choosable even when not in the list (a stopped class)
  const options = [...classes, ...(exam?.classes ?? []).filter((c) => !classes.some((x) => x.id === c.id))].map((c) => ({
    value: c.id,
    label: c.name,
  }));
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const body = {
      name: v.name,
      subject: v.subject,
      exam_day: v.exam_day.format('YYYY-MM-DD'),
      full_mark: v.full_mark,
      pass_mark: v.pass_mark ?? null,
      class_ids: v.class_ids,
    };
    await save.run(exam ? { id: exam.id, version: exam.version, ...body } : body);
  };
  return (
    <Modal
      open
      title={s(exam ? 'form.edit' : 'form.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={s('save')}
      cancelText={s('cancel')}
      confirmLoading={save.busy}
      destroyOnHidden
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={
          exam
            ? {
                name: exam.name,
                subject: exam.subject,
                exam_day: dayjs(exam.exam_day),
                full_mark: exam.full_mark,
                pass_mark: exam.pass_mark_given ? exam.pass_mark : null,
                class_ids: exam.classes.map((c) => c.id),
              }
            : { full_mark: 100, exam_day: dayjs(today), class_ids: classes.length === 1 ? [classes[0].id] : [] }
        }
      >
        <Form.Item name="name" label={s('form.name')} rules={zodRule(AddExamInput, 'name', s('form.name'))}>
          <Input placeholder={s('form.name_ph')} maxLength={50} />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item
            name="subject"
            label={s('form.subject')}
            rules={[{ required: true, whitespace: true, message: s('required') }]}
            style={{ flex: 1 }}
          >
            <Select showSearch={{}} options={EXAM_SUBJECTS.map((x) => ({ value: x, label: x }))} />
          </Form.Item>
          <Form.Item name="exam_day" label={s('form.day')} rules={[{ required: true, message: s('required') }]} style={{ flex: 1 }}>
            <DatePicker style={{ width: '100%' }} inputReadOnly />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="full_mark" label={s('form.full')} rules={[{ required: true, message: s('required') }]} style={{ flex: 1 }}>
            <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="pass_mark" label={s('form.pass')} extra={s('form.pass_help')} style={{ flex: 1 }}>
            <InputNumber min={0} max={1000} step={0.5} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
        <Form.Item
          name="class_ids"
          label={s('form.classes')}
          rules={[{ required: true, type: 'array', min: 1, message: s('required') }]}
          extra={options.length ? undefined : s('form.no_classes')}
        >
          <Select mode="multiple" options={options} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
