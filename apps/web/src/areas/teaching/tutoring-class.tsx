import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Popconfirm,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import {
  formatFen,
  type AddTutorialSchoolCareAnswer,
  type AddTutorialSchoolCareInput,
  type Clash,
  type TutorialStudentInfo,
  type TutoringClass,
  type TutoringMember,
} from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { feedback } from '../../api/feedback';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { ClashList, clashesOf, RoomSelect, SessionStateTag, StaffSelect, wdKey } from './common';
import { PatternFields, PreviewView } from './schedule-generator';
import { SessionsTab } from './sessions';
import { teachingStrings } from './strings';
import { AddStudents } from './students';
import { tutoringStrings } from './tutoring-strings';

const PAGE = 20;
export const TUTORING_PATH = '/principal_class_family';

/** The school's tutoring types (tutorialType), for filters and the new-class form. */
export function useTutoringTypes() {
  return useQuery({
    queryKey: queryKey('tutorialType', { page: 1, limit: 100 }),
    queryFn: () => get('tutorialType', { page: 1, limit: 100 }),
    staleTime: 30_000,
  });
}

export const slotsText = (c: TutoringClass, wd: (n: number) => string) =>
  c.pattern.map((p) => `${wd(p.weekday)} ${p.start_time}-${p.end_time}`).join('，');

interface NewValues {
  name: string;
  type_id: number;
  teacher_id?: number;
  room_id?: number | null;
  capacity: number;
  remark?: string;
  pattern: Array<{ weekday: number; start_time: string; end_time?: string }>;
  range: [Dayjs, Dayjs];
}

const inputOf = (v: NewValues, preview: boolean): AddTutorialSchoolCareInput => ({
  name: v.name.trim(),
  type_id: v.type_id,
  ...(v.teacher_id ? { teacher_id: v.teacher_id } : {}),
  room_id: v.room_id ?? null,
  capacity: v.capacity,
  from: v.range[0].format('YYYY-MM-DD'),
  to: v.range[1].format('YYYY-MM-DD'),
  pattern: v.pattern.map((p) => ({ weekday: p.weekday, start_time: p.start_time, ...(p.end_time ? { end_time: p.end_time } : {}) })),
  ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}),
  preview,
});

/** ?new=1: a tutoring class with its weekly pattern; previewed (sessions, holidays, clashes), then created with its sessions all or nothing. */
export function TutoringClassNew() {
  const s = tutoringStrings.use();
  const today = useSchoolToday();
  const navigate = useNavigate();
  const [form] = Form.useForm<NewValues>();
  const types = useTutoringTypes();
  const settings = useQuery({
    queryKey: queryKey('tutorialSettingList', { page: 1, limit: 100 }),
    queryFn: () => get('tutorialSettingList', { page: 1, limit: 100 }),
  });
  const typeId = Form.useWatch('type_id', form);
  const setting = settings.data?.list.find((x) => x.type_id === typeId);
  const [preview, setPreview] = useState<AddTutorialSchoolCareAnswer | null>(null);
  const [refused, setRefused] = useState<Clash[] | null>(null);
  // the preview's refusal is shown by the request wrapper, its clashes listed too
  const previewing = useAction('addTutorialSchoolCare', {
    onDone: (answer) => setPreview(answer),
    onError: (err) => setRefused(clashesOf(err)),
  });
  // the write is silent: its clashes listed, any other refusal shown here
  const writing = useAction('addTutorialSchoolCare', {
    silent: true,
    invalidates: ['tutorialList'],
    onDone: (answer) => {
      if (!answer.class) return setPreview(answer);
      feedback().message.success(s('new.created', { name: answer.class.name, n: answer.written }));
      navigate(`${TUTORING_PATH}?id=${answer.class.id}`);
    },
    onError: (err) => {
      const clashes = clashesOf(err);
      if (clashes) setRefused(clashes);
      else feedback().message.error(err.message);
    },
  });
  const busy = previewing.busy ? 'preview' : writing.busy ? 'write' : null;
  const run = async (write: boolean) => {
    const v = await form.validateFields().catch(() => null);
    if (!v || busy) return;
    setRefused(null);
    await (write ? writing : previewing).run(inputOf(v, !write));
  };
  return (
    <Card title={s('new.title')} extra={<Button onClick={() => navigate(TUTORING_PATH)}>{s('back')}</Button>}>
      <Flex vertical gap={16}>
        <Form<NewValues>
          form={form}
          layout="vertical"
          style={{ maxWidth: 640 }}
          initialValues={{
            capacity: 6,
            pattern: [{ weekday: 2, start_time: '16:30' }],
            range: [dayjs(today).add(1, 'day'), dayjs(today).add(8, 'week')],
          }}
          onValuesChange={() => {
            setPreview(null);
            setRefused(null);
          }}
        >
          <Form.Item name="name" label={s('new.name')} rules={[{ required: true, whitespace: true, max: 50, message: s('new.name_rule') }]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item
            name="type_id"
            label={s('new.type')}
            rules={[{ required: true, message: s('new.type_rule') }]}
            extra={
              setting
                ? s('new.type_hint', {
                    duration: setting.duration_min,
                    price: formatFen(setting.price_fen),
                    teacher: setting.teacher_name ?? s('type.none'),
                  })
                : undefined
            }
          >
            <Select loading={types.isLoading} options={(types.data?.list ?? []).map((t) => ({ value: t.id, label: t.name }))} />
          </Form.Item>
          <Space size={16} wrap align="start" style={{ width: '100%' }} styles={{ item: { minWidth: 240 } }}>
            <Form.Item name="teacher_id" label={s('new.teacher')} extra={s('new.teacher_hint')}>
              <StaffSelect />
            </Form.Item>
            <Form.Item name="room_id" label={s('new.room')}>
              <RoomSelect />
            </Form.Item>
            <Form.Item
              name="capacity"
              label={s('new.capacity')}
              rules={[{ required: true, type: 'integer', min: 1, max: 100, message: s('new.capacity_rule') }]}
            >
              <InputNumber min={1} max={100} precision={0} style={{ width: 120 }} />
            </Form.Item>
          </Space>
          <Typography.Paragraph type="secondary">{s('new.end_hint')}</Typography.Paragraph>
          <PatternFields endOptional />
          <Form.Item name="remark" label={s('new.remark')} rules={[{ max: 200 }]}>
            <Input.TextArea maxLength={200} rows={2} />
          </Form.Item>
          <Space wrap>
            <Button onClick={() => void run(false)} loading={busy === 'preview'}>
              {s('new.preview')}
            </Button>
            <Button
              type="primary"
              disabled={!preview || preview.clashes.length > 0 || preview.sessions.length === 0}
              loading={busy === 'write'}
              onClick={() => void run(true)}
            >
              {s('new.confirm', { n: preview?.sessions.length ?? 0 })}
            </Button>
          </Space>
        </Form>
        {refused && <ClashList title={s('new.refused')} clashes={refused} />}
        {preview && <PreviewView answer={preview} />}
      </Flex>
    </Card>
  );
}

/** ?id=: one tutoring class with its sessions (move, cancel) and its students with their plans. */
export function TutoringClassPage({ id }: { id: number }) {
  const s = tutoringStrings.use();
  const ts = teachingStrings.use();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const valid = Number.isSafeInteger(id) && id > 0;
  const tab = params.get('tab') === 'students' ? 'students' : 'sessions';
  const q = useQuery({ queryKey: queryKey('tutorialInfo', { id }), queryFn: () => get('tutorialInfo', { id }), enabled: valid, retry: false });
  const back = <Button onClick={() => navigate(TUTORING_PATH)}>{s('back')}</Button>;
  if (!valid)
    return (
      <Card>
        <EmptyState description={s('cls.no_class')}>{back}</EmptyState>
      </Card>
    );
  if (q.isLoading)
    return (
      <Card>
        <Loading />
      </Card>
    );
  if (q.isError || !q.data)
    return (
      <Card extra={back}>
        <LoadError onRetry={() => void q.refetch()} />
      </Card>
    );
  const c = q.data;
  const changed = () => {
    void client.invalidateQueries({ queryKey: queryKey('tutorialInfo', { id }) });
    void client.invalidateQueries({ queryKey: queryKey('tutorialScheduling', { class_id: id }) });
    void client.invalidateQueries({ queryKey: queryKey('tutorialStudent', { class_id: id }) });
  };
  return (
    <Card title={s('cls.title', { name: c.name })} extra={back}>
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={s('col.type')}>{c.type_name}</Descriptions.Item>
        <Descriptions.Item label={s('col.teacher')}>{c.teacher_name}</Descriptions.Item>
        <Descriptions.Item label={s('col.room')}>{c.room_name ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={s('col.students')}>{`${c.students} / ${c.capacity}`}</Descriptions.Item>
        <Descriptions.Item label={s('col.sessions')}>{`${c.sessions_held} / ${c.sessions_scheduled}`}</Descriptions.Item>
        <Descriptions.Item label={s('cls.duration')}>{s('cls.minutes', { n: c.duration_min })}</Descriptions.Item>
        <Descriptions.Item label={s('col.price')}>{`¥${formatFen(c.price_fen)}`}</Descriptions.Item>
        <Descriptions.Item label={s('col.slots')}>{slotsText(c, (n) => ts(wdKey(n)))}</Descriptions.Item>
        <Descriptions.Item label={s('col.range')}>{`${c.from} ~ ${c.to}`}</Descriptions.Item>
        <Descriptions.Item label={s('col.state')}>
          {c.status === 1 ? <Tag color="green">{s('list.running')}</Tag> : <Tag>{s('list.stopped')}</Tag>}
        </Descriptions.Item>
      </Descriptions>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ id: String(id), tab: k }, { replace: true })}
        items={[
          { key: 'sessions', label: s('cls.tab_sessions'), children: <SessionsTab kind="tutoring" cls={c} onChanged={changed} /> },
          { key: 'students', label: s('cls.tab_students'), children: <TutoringStudents cls={c} onChanged={changed} /> },
        ]}
      />
    </Card>
  );
}

/** The class's students (tutorialStudent) with their plan; add with a plan (selectTutorialStudent, addTutorialStudent), remove, open the plan and records. */
function TutoringStudents({ cls, onChanged }: { cls: TutoringClass; onChanged: () => void }) {
  const s = tutoringStrings.use();
  const ts = teachingStrings.use();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<TutoringMember | null>(null);
  const [plan] = Form.useForm<{ plan?: string }>();
  const q = useQuery({
    queryKey: queryKey('tutorialStudent', { class_id: cls.id, page, limit: PAGE }),
    queryFn: () => get('tutorialStudent', { class_id: cls.id, page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const del = useAction('delTutorialStudent', { success: s('saved'), onDone: onChanged });
  const remove = (m: TutoringMember) => del.run({ class_id: cls.id, student_id: m.id });
  const left = Math.max(0, cls.capacity - cls.students);
  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text type={cls.status === 1 ? 'secondary' : 'warning'}>
          {cls.status === 1 ? ts('stu.room_left', { capacity: cls.capacity, current: cls.students, left }) : s('stu.stopped')}
        </Typography.Text>
        <Button type="primary" disabled={left === 0 || cls.status !== 1} onClick={() => setAdding(true)}>
          {ts('stu.add')}
        </Button>
      </Flex>
      <ServerTable<TutoringMember>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 800 }}
        locale={{ emptyText: <EmptyState description={ts('stu.empty')} /> }}
        columns={[
          { title: ts('stu.name'), dataIndex: 'name', width: 110 },
          { title: ts('stu.grade'), dataIndex: 'grade', width: 80, render: (v: string | null) => v ?? '-' },
          { title: ts('stu.class'), dataIndex: 'class_name', width: 100, render: (v: string | null) => v ?? '-' },
          {
            title: s('stu.plan'),
            dataIndex: 'plan',
            render: (v: string | null) => v ?? <Typography.Text type="secondary">{s('stu.no_plan')}</Typography.Text>,
          },
          { title: s('stu.attended'), dataIndex: 'attended', width: 90 },
          {
            title: s('col.actions'),
            key: 'a',
            width: 170,
            render: (_, m) => (
              <Space size={4}>
                <Button size="small" onClick={() => setOpen(m)}>
                  {s('stu.info')}
                </Button>
                <Popconfirm title={ts('stu.remove_confirm', { name: m.name })} onConfirm={() => remove(m)}>
                  <Button size="small" danger>
                    {ts('stu.remove')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {adding && (
        <AddStudents
          cls={cls}
          left={left}
          actions={{ select: 'selectTutorialStudent', add: 'addTutorialStudent' }}
          extra={async () => {
            const v = await plan.validateFields();
            return v.plan?.trim() ? { plan: v.plan.trim() } : {};
          }}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            plan.resetFields();
            onChanged();
          }}
        >
          <Form form={plan} layout="vertical">
            <Form.Item name="plan" label={s('stu.plan')} rules={[{ max: 500 }]}>
              <Input.TextArea rows={2} maxLength={500} placeholder={s('stu.plan_ph')} />
            </Form.Item>
          </Form>
        </AddStudents>
      )}
      {open && <StudentInfoDrawer classId={cls.id} member={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function StudentInfoDrawer({ classId, member, onClose }: { classId: number; member: TutoringMember; onClose: () => void }) {
  const s = tutoringStrings.use();
  const ts = teachingStrings.use();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: queryKey('tutorialStudentInfo', { class_id: classId, student_id: member.id, page, limit: 10 }),
    queryFn: () => get('tutorialStudentInfo', { class_id: classId, student_id: member.id, page, limit: 10 }),
    placeholderData: keepPreviousData,
  });
  const d = q.data;
  return (
    <Drawer open width={560} title={s('stu.info_title', { name: member.name })} onClose={onClose}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !d ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Alert type="info" title={s('stu.plan')} description={d.plan ?? s('stu.no_plan')} />
          <Typography.Text>{s('stu.counts', d.counts)}</Typography.Text>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {s('stu.next')}
          </Typography.Title>
          <List
            size="small"
            bordered
            dataSource={d.next_sessions}
            locale={{ emptyText: s('stu.no_next') }}
            renderItem={(n) => (
              <List.Item>{`${n.day} ${ts(wdKey(dayjs(n.day).day() || 7))} ${n.start_time}-${n.end_time}${n.room_name ? ` · ${n.room_name}` : ''}`}</List.Item>
            )}
          />
          <Typography.Title level={5} style={{ margin: 0 }}>
            {s('stu.records')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="session_id"
            dataSource={d.records.list}
            pagination={{ current: page, pageSize: 10, total: d.records.total, onChange: setPage, showSizeChanger: false, hideOnSinglePage: true }}
            locale={{ emptyText: s('stu.no_records') }}
            columns={[
              { title: ts('col.day'), dataIndex: 'day', width: 110 },
              { title: ts('col.time'), key: 't', width: 110, render: (_, r) => `${r.start_time}-${r.end_time}` },
              {
                title: ts('col.state'),
                dataIndex: 'state',
                width: 90,
                render: (v: TutorialStudentInfo['records']['list'][number]['state']) => <SessionStateTag state={v} />,
              },
              { title: s('stu.attended'), dataIndex: 'status', render: (v: string | null) => s(v ? (`roll.${v}` as 'roll.present') : 'roll.none') },
            ]}
          />
        </Flex>
      )}
    </Drawer>
  );
}
