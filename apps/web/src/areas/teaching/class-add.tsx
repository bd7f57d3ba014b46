import { Button, Card, Form, Input, InputNumber, Result, Segmented, Space, Steps } from 'antd';
import { yuanToFen, type AddTeachingClassInput, type TeachingClass } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MoneyInput } from '../../components/money-input';
import { Loading } from '../../components/states';
import { RoomSelect, StaffSelect } from './common';
import { ScheduleGenerator } from './schedule-generator';
import { teachingStrings } from './strings';
import { editPath } from './teaching-list';
import { useAction } from '../../api/action';

const CareClassForm = lazy(() => import('../care/class-form'));

interface InfoValues {
  name: string;
  subject: string;
  teacher_id: number;
  room_id: number | null;
  capacity: number;
  sessions_count: number;
  fee: string;
  remark?: string;
}

/** /principal_add_class: a care class (the care area's form, the default) or a teaching class (?type=teaching) with its schedule. */
export default function ClassAdd() {
  const s = teachingStrings.use();
  const [params, setParams] = useSearchParams();
  const teaching = params.get('type') === 'teaching';
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Segmented
        value={teaching ? 'teaching' : 'care'}
        onChange={(v) => setParams(v === 'teaching' ? { type: 'teaching' } : {}, { replace: true })}
        options={[
          { value: 'care', label: s('add.kind_care') },
          { value: 'teaching', label: s('add.kind_teaching') },
        ]}
      />
      <Suspense fallback={<Loading />}>{teaching ? <TeachingClassAdd /> : <CareClassForm />}</Suspense>
    </Space>
  );
}

function TeachingClassAdd() {
  const s = teachingStrings.use();
  const navigate = useNavigate();
  const [created, setCreated] = useState<TeachingClass | null>(null);
  const [written, setWritten] = useState<number | null>(null);
  const step = !created ? 0 : written === null ? 1 : 2;
  return (
    <Card title={s('list.new')}>
      <Steps
        current={step}
        style={{ marginBottom: 24, maxWidth: 640 }}
        items={[{ title: s('add.step_info') }, { title: s('add.step_schedule') }, { title: s('add.step_done') }]}
      />
      {step === 0 && <InfoForm onCreated={setCreated} />}
      {step === 1 && created && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <ScheduleGenerator classId={created.id} onWritten={setWritten} />
          <Button type="link" style={{ padding: 0 }} onClick={() => navigate(editPath(created.id))}>
            {s('add.skip')}
          </Button>
        </Space>
      )}
      {step === 2 && created && (
        <Result
          status="success"
          title={s('add.done_title', { n: written ?? 0 })}
          subTitle={s('add.done_sub')}
          extra={[
            <Button type="primary" key="open" onClick={() => navigate(editPath(created.id))}>
              {s('add.open_class')}
            </Button>,
            <Button key="list" onClick={() => navigate('/principal_class?tab=teaching')}>
              {s('add.to_list')}
            </Button>,
          ]}
        />
      )}
    </Card>
  );
}

function InfoForm({ onCreated }: { onCreated: (c: TeachingClass) => void }) {
  const s = teachingStrings.use();
  const navigate = useNavigate();
  const add = useAction('addTeachingClass', { success: (c) => s('add.created', { name: c.name }), onDone: onCreated });
  const submit = async (v: InfoValues) => {
    const input: AddTeachingClassInput = {
      name: v.name.trim(),
      subject: v.subject.trim(),
      teacher_id: v.teacher_id,
      room_id: v.room_id ?? null,
      capacity: v.capacity,
      sessions_count: v.sessions_count,
      fee_fen: yuanToFen(v.fee || '0') ?? 0,
      ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}),
    };
    await add.run(input);
  };
  return (
    <Form<InfoValues> layout="vertical" style={{ maxWidth: 520 }} onFinish={submit} initialValues={{ capacity: 20, sessions_count: 16, fee: '0' }}>
      <Form.Item name="name" label={s('f.name')} rules={[{ required: true, whitespace: true, max: 50, message: s('f.name_rule') }]}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="subject" label={s('f.subject')} rules={[{ required: true, whitespace: true, max: 30, message: s('f.subject_rule') }]}>
        <Input maxLength={30} placeholder={s('f.subject_ph')} />
      </Form.Item>
      <Form.Item name="teacher_id" label={s('f.teacher')} rules={[{ required: true, message: s('f.teacher_rule') }]}>
        <StaffSelect />
      </Form.Item>
      <Form.Item name="room_id" label={s('f.room')}>
        <RoomSelect />
      </Form.Item>
      <Space size={16} wrap>
        <Form.Item
          name="capacity"
          label={s('f.capacity')}
          rules={[{ required: true, type: 'integer', min: 1, max: 500, message: s('f.capacity_rule') }]}
        >
          <InputNumber min={1} max={500} precision={0} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item
          name="sessions_count"
          label={s('f.sessions')}
          tooltip={s('f.sessions_hint')}
          rules={[{ required: true, type: 'integer', min: 1, max: 400, message: s('f.sessions_rule') }]}
        >
          <InputNumber min={1} max={400} precision={0} style={{ width: 150 }} />
        </Form.Item>
      </Space>
      <Form.Item
        name="fee"
        label={s('f.fee')}
        rules={[
          {
            validator: (_, v: string | undefined) => {
              const fen = yuanToFen(v || '0');
              return fen !== null && fen >= 0 && fen <= 10_000_000 ? Promise.resolve() : Promise.reject(new Error(s('f.fee_rule')));
            },
          },
        ]}
      >
        <MoneyInput maxLength={12} />
      </Form.Item>
      <Form.Item name="remark" label={s('f.remark')} rules={[{ max: 200 }]}>
        <Input.TextArea maxLength={200} rows={2} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={add.busy}>
          {s('add.create')}
        </Button>
        <Button onClick={() => navigate('/principal_class?tab=teaching')}>{s('back')}</Button>
      </Space>
    </Form>
  );
}
