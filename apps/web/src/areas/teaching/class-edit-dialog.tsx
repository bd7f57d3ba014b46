import { Alert, Form, Input, InputNumber, Modal, Space } from 'antd';
import { formatFen, yuanToFen, type Clash, type EditTeachingClassInput, type TeachingClass } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { MoneyInput } from '../../components/money-input';
import { ClashList, clashesOf, RoomSelect, StaffSelect } from './common';
import { teachingStrings } from './strings';

interface EditValues {
  name: string;
  subject: string;
  teacher_id: number;
  room_id: number | null;
  capacity: number;
  sessions_count: number;
  fee: string;
}

/** 编辑 on a teaching class's page: its details on the version read (editTeachingClass); a clash of a new teacher or room is listed. */
export function ClassEditDialog({ cls, onClose, onSaved }: { cls: TeachingClass; onClose: () => void; onSaved: () => void }) {
  const s = teachingStrings.use();
  const [form] = Form.useForm<EditValues>();
  const [refused, setRefused] = useState<Clash[] | null>(null);
  // silent: a clash is listed in the dialog, any other refusal shown here
  const edit = useAction('editTeachingClass', {
    silent: true,
    success: s('saved'),
    onDone: onSaved,
    onError: (err) => {
      const clashes = clashesOf(err);
      if (clashes) setRefused(clashes);
      else feedback().message.error(err.message);
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the form shows its fields' errors
    const input: EditTeachingClassInput = {
      id: cls.id,
      version: cls.version,
      name: v.name.trim(),
      subject: v.subject.trim(),
      teacher_id: v.teacher_id,
      room_id: v.room_id ?? null,
      capacity: v.capacity,
      sessions_count: v.sessions_count,
      fee_fen: yuanToFen(v.fee || '0') ?? 0,
    };
    setRefused(null);
    await edit.run(input);
  };
  return (
    <Modal
      open
      width={600}
      title={s('edit.edit_title', { name: cls.name })}
      onCancel={onClose}
      okButtonProps={{ loading: edit.busy }}
      onOk={() => void submit()}
    >
      <Alert type="info" showIcon title={s('edit.edit_hint')} style={{ marginBottom: 16 }} />
      <Form<EditValues>
        form={form}
        layout="vertical"
        onValuesChange={() => setRefused(null)}
        initialValues={{
          name: cls.name,
          subject: cls.subject,
          teacher_id: cls.teacher_id,
          room_id: cls.room_id,
          capacity: cls.capacity,
          sessions_count: cls.sessions_count,
          fee: formatFen(cls.fee_fen),
        }}
      >
        <Form.Item name="name" label={s('f.name')} rules={[{ required: true, whitespace: true, max: 50, message: s('f.name_rule') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="subject" label={s('f.subject')} rules={[{ required: true, whitespace: true, max: 30, message: s('f.subject_rule') }]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="teacher_id" label={s('f.teacher')} rules={[{ required: true, message: s('f.teacher_rule') }]}>
          <StaffSelect current={{ id: cls.teacher_id, name: cls.teacher_name }} />
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
      </Form>
      {refused && <ClashList title={s('edit.edit_refused')} clashes={refused} />}
    </Modal>
  );
}
