import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Space } from 'antd';
import { CARE_LIMITS, formatFen, yuanToFen, type CareClassInfo } from '@wantuo/shared';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { MoneyInput } from '../../components/money-input';
import { LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { SlotSelect, TeacherSelect } from './care-common';
import { careStrings } from './strings';

interface ClassValues {
  name: string;
  head_teacher_id: number | null;
  class_time_id: number | null;
  capacity: number;
  fee: string;
}

function ClassForm({ current }: { current: CareClassInfo | null }) {
  const t = useT();
  const tc = careStrings.use();
  const navigate = useNavigate();
  const saved = { invalidates: ['classList', 'wantuoInfo'], success: t('common.saved'), onDone: () => navigate('/principal_class') } as const;
  const add = useAction('addAfterSchoolCare', saved);
  // a stale version shows the server's conflict message
  const edit = useAction('editAfterSchoolCare', saved);
  const submit = async (v: ClassValues) => {
    const input = {
      name: v.name.trim(),
      head_teacher_id: v.head_teacher_id ?? null,
      class_time_id: v.class_time_id ?? null,
      capacity: v.capacity,
      fee_fen: yuanToFen(v.fee || '0') ?? 0,
    };
    if (current) await edit.run({ id: current.id, version: current.version, ...input });
    else await add.run(input);
  };
  const maxFen = CARE_LIMITS.feeFen;
  return (
    <Form<ClassValues>
      layout="vertical"
      style={{ maxWidth: 520 }}
      onFinish={submit}
      initialValues={
        current
          ? {
              name: current.name,
              head_teacher_id: current.head_teacher_id,
              class_time_id: current.class_time_id,
              capacity: current.capacity,
              fee: formatFen(current.fee_fen),
            }
          : { capacity: 30, fee: '0' }
      }
    >
      <Form.Item
        name="name"
        label={tc('care.class_name')}
        rules={[{ required: true, whitespace: true, max: 50, message: tc('care.class_name_rule') }]}
      >
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="head_teacher_id" label={tc('care.head_teacher')}>
        <TeacherSelect
          duty="head"
          allowClear
          current={current?.head_teacher_id ? { id: current.head_teacher_id, name: current.head_teacher_name ?? '' } : null}
        />
      </Form.Item>
      <Form.Item name="class_time_id" label={tc('care.slot')} extra={tc('care.slot_hint')}>
        <SlotSelect />
      </Form.Item>
      <Form.Item
        name="capacity"
        label={tc('care.capacity')}
        rules={[
          {
            required: true,
            type: 'integer',
            min: Math.max(1, current?.headcount ?? 1),
            max: CARE_LIMITS.capacity,
            message: tc('care.capacity_rule', { min: Math.max(1, current?.headcount ?? 1) }),
          },
        ]}
      >
        <InputNumber min={1} max={CARE_LIMITS.capacity} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="fee"
        label={tc('care.fee_yuan')}
        rules={[
          {
            validator: (_, v: string | undefined) => {
              const fen = yuanToFen(v || '0');
              return fen !== null && fen >= 0 && fen <= maxFen ? Promise.resolve() : Promise.reject(new Error(tc('care.fee_rule')));
            },
          },
        ]}
      >
        <MoneyInput maxLength={12} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={add.busy || edit.busy}>
          {t('common.save')}
        </Button>
        <Button onClick={() => navigate('/principal_class')}>{t('common.back')}</Button>
      </Space>
    </Form>
  );
}

/** /principal_add_class and /principal_class_Editing?id=: the care class form. */
export default function ClassFormPage() {
  const tc = careStrings.use();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const editing = Number.isSafeInteger(id) && id > 0;
  const q = useQuery({ queryKey: queryKey('wantuoInfo', { id }), queryFn: () => get('wantuoInfo', { id }), enabled: editing });
  return (
    <Card title={editing ? tc('care.edit_class') : tc('care.new_class')}>
      {!editing ? (
        <ClassForm current={null} />
      ) : q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : (
        <ClassForm key={q.data.version} current={q.data} />
      )}
    </Card>
  );
}
