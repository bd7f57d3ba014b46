import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Tabs, Tag } from 'antd';
import { formatFen, TutorialSettingInput, yuanToFen, type TutorialSetting, type TutoringClass } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { zodRule } from '../../forms';
import { MoneyInput } from '../../components/money-input';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { StaffSelect, wdKey } from './common';
import { teachingStrings } from './strings';
import { slotsText, TUTORING_PATH, TutoringClassNew, TutoringClassPage, useTutoringTypes } from './tutoring-class';
import { tutoringStrings } from './tutoring-strings';

const PAGE = 20;

/** /principal_class_family: tutoring classes and the tutoring types' settings; ?id= a class, ?new=1 a new class. */
export default function Tutoring() {
  const s = tutoringStrings.use();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  if (params.get('new') === '1') return <TutoringClassNew />;
  if (id !== null) return <TutoringClassPage id={Number(id)} />;
  const tab = params.get('tab') === 'types' ? 'types' : 'classes';
  return (
    <Tabs
      type="card"
      activeKey={tab}
      onChange={(k) => setParams(k === 'classes' ? {} : { tab: k }, { replace: true })}
      items={[
        { key: 'classes', label: s('tab.classes'), children: <TutoringClassList /> },
        { key: 'types', label: s('tab.types'), children: <TutoringSettings /> },
      ]}
    />
  );
}

function TutoringClassList() {
  const s = tutoringStrings.use();
  const ts = teachingStrings.use();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [typeId, setTypeId] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const types = useTutoringTypes();
  const input = { page, limit: PAGE, ...(name ? { name } : {}), ...(typeId ? { type_id: typeId } : {}) };
  const q = useQuery({
    queryKey: queryKey('tutorialList', input),
    queryFn: () => get('tutorialList', input),
    placeholderData: keepPreviousData,
  });
  // a refusal is shown by the request wrapper (stale, held sessions): the list is read again
  const del = useAction('delTutorialClass', {
    invalidates: ['tutorialList'],
    success: (r) => s('act.deleted', { n: r.cancelled }),
    onError: () => void q.refetch(),
  });
  const toggle = useAction('startAndEndTutorialClass', {
    invalidates: ['tutorialList'],
    success: (_, i) => s(i.status === 1 ? 'act.started' : 'act.stopped'),
    onError: () => void q.refetch(),
  });
  const busy = del.busy || toggle.busy;
  const act = (c: TutoringClass, what: 'stop' | 'start' | 'delete') =>
    what === 'delete' ? del.run({ id: c.id, version: c.version }) : toggle.run({ id: c.id, version: c.version, status: what === 'start' ? 1 : 0 });
  return (
    <Card title={s('tab.classes')}>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            maxLength={50}
            placeholder={s('list.search')}
            style={{ width: 220, maxWidth: '100%' }}
            onSearch={(v) => {
              setName(v.trim());
              setPage(1);
            }}
          />
          <Select<number>
            allowClear
            placeholder={s('list.all_types')}
            style={{ width: 160 }}
            loading={types.isLoading}
            value={typeId}
            onChange={(v) => {
              setTypeId(v);
              setPage(1);
            }}
            options={(types.data?.list ?? []).map((t) => ({ value: t.id, label: t.name }))}
          />
        </Space>
        <Button type="primary" onClick={() => navigate(`${TUTORING_PATH}?new=1`)}>
          {s('list.new')}
        </Button>
      </Space>
      <ServerTable<TutoringClass>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 1200 }}
        locale={{ emptyText: <EmptyState description={name || typeId ? s('list.empty_search') : s('list.empty')} /> }}
        columns={[
          { title: s('col.name'), dataIndex: 'name', fixed: 'left', width: 150 },
          { title: s('col.type'), dataIndex: 'type_name', width: 100 },
          { title: s('col.teacher'), dataIndex: 'teacher_name', width: 100 },
          { title: s('col.room'), dataIndex: 'room_name', width: 90, render: (v: string | null) => v ?? '-' },
          { title: s('col.slots'), key: 'slots', width: 200, render: (_, c) => slotsText(c, (n) => ts(wdKey(n))) },
          { title: s('col.students'), key: 'students', width: 110, render: (_, c) => `${c.students} / ${c.capacity}` },
          { title: s('col.sessions'), key: 'sessions', width: 100, render: (_, c) => `${c.sessions_held} / ${c.sessions_scheduled}` },
          { title: s('col.price'), dataIndex: 'price_fen', width: 90, render: (v: number) => `¥${formatFen(v)}` },
          {
            title: s('col.state'),
            dataIndex: 'status',
            width: 80,
            render: (v: number) => (v === 1 ? <Tag color="green">{s('list.running')}</Tag> : <Tag>{s('list.stopped')}</Tag>),
          },
          {
            title: s('col.actions'),
            key: 'actions',
            fixed: 'right',
            width: 190,
            render: (_, c) => (
              <Space size={4}>
                <Button size="small" onClick={() => navigate(`${TUTORING_PATH}?id=${c.id}`)}>
                  {s('act.open')}
                </Button>
                {c.status === 1 ? (
                  <Popconfirm title={s('act.stop_confirm', { name: c.name })} onConfirm={() => act(c, 'stop')}>
                    <Button size="small" disabled={busy} loading={toggle.busy && toggle.input?.id === c.id}>
                      {s('act.stop')}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button size="small" disabled={busy} loading={toggle.busy && toggle.input?.id === c.id} onClick={() => void act(c, 'start')}>
                    {s('act.start')}
                  </Button>
                )}
                <Popconfirm title={s('act.delete_confirm', { name: c.name })} onConfirm={() => act(c, 'delete')}>
                  <Button size="small" danger disabled={busy} loading={del.busy && del.input?.id === c.id}>
                    {s('act.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** The types with their settings (tutorialSettingList); edit one on its version, or add a type (tutorialSetting). */
function TutoringSettings() {
  const s = tutoringStrings.use();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<TutorialSetting | 'new' | null>(null);
  const q = useQuery({
    queryKey: queryKey('tutorialSettingList', { page, limit: PAGE }),
    queryFn: () => get('tutorialSettingList', { page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card
      title={s('tab.types')}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {s('type.add')}
        </Button>
      }
    >
      <ServerTable<TutorialSetting>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        rowKey="type_id"
        scroll={{ x: 600 }}
        locale={{ emptyText: <EmptyState description={s('type.empty')} /> }}
        columns={[
          { title: s('type.name'), dataIndex: 'name', width: 140 },
          { title: s('type.duration'), dataIndex: 'duration_min', width: 110 },
          { title: s('type.price'), dataIndex: 'price_fen', width: 110, render: (v: number) => `¥${formatFen(v)}` },
          { title: s('type.teacher'), dataIndex: 'teacher_name', width: 120, render: (v: string | null) => v ?? s('type.none') },
          {
            title: s('col.actions'),
            key: 'a',
            width: 90,
            render: (_, r) => (
              <Button size="small" onClick={() => setEditing(r)}>
                {s('type.edit')}
              </Button>
            ),
          },
        ]}
      />
      {editing && (
        <SettingDialog
          setting={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void q.refetch();
          }}
        />
      )}
    </Card>
  );
}

interface SettingValues {
  name?: string;
  duration_min: number;
  price: string;
  teacher_id: number | null;
}

function SettingDialog({ setting, onClose, onSaved }: { setting: TutorialSetting | null; onClose: () => void; onSaved: () => void }) {
  const s = tutoringStrings.use();
  const [form] = Form.useForm<SettingValues>();
  // a refusal is shown by the request wrapper (stale version, name taken)
  const save = useAction('tutorialSetting', { success: s('saved'), invalidates: ['tutorialType'], onDone: onSaved });
  const teacherId = Form.useWatch('teacher_id', form);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const input: TutorialSettingInput = {
      ...(setting ? { type_id: setting.type_id, version: setting.version } : { name: (v.name ?? '').trim() }),
      duration_min: v.duration_min,
      price_fen: yuanToFen(v.price || '0') ?? 0,
      teacher_id: v.teacher_id ?? null,
    };
    await save.run(input);
  };
  return (
    <Modal
      open
      title={setting ? s('type.edit_title', { name: setting.name }) : s('type.add_title')}
      onCancel={onClose}
      okButtonProps={{ loading: save.busy }}
      onOk={() => void submit()}
    >
      <Form<SettingValues>
        form={form}
        layout="vertical"
        initialValues={
          setting
            ? { duration_min: setting.duration_min, price: formatFen(setting.price_fen), teacher_id: setting.teacher_id }
            : { duration_min: 60, price: '0', teacher_id: null }
        }
      >
        {!setting && (
          <Form.Item name="name" label={s('type.name')} rules={zodRule(TutorialSettingInput, 'name', { label: s('type.name'), required: true })}>
            <Input maxLength={30} />
          </Form.Item>
        )}
        <Form.Item name="duration_min" label={s('type.duration')} rules={zodRule(TutorialSettingInput, 'duration_min', s('type.duration'))}>
          <InputNumber min={10} max={480} precision={0} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item
          name="price"
          label={s('type.price_yuan')}
          rules={[
            {
              validator: (_, v: string | undefined) => {
                const fen = yuanToFen(v || '0');
                return fen !== null && fen >= 0 && fen <= 10_000_000 ? Promise.resolve() : Promise.reject(new Error(s('type.price_rule')));
              },
            },
          ]}
        >
          <MoneyInput maxLength={12} />
        </Form.Item>
        <Form.Item label={s('type.teacher')}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="teacher_id" noStyle>
              <StaffSelect current={setting?.teacher_id && setting.teacher_name ? { id: setting.teacher_id, name: setting.teacher_name } : null} />
            </Form.Item>
            <Button disabled={!teacherId} onClick={() => form.setFieldValue('teacher_id', null)}>
              {s('type.clear_teacher')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </Modal>
  );
}
