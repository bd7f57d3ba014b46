import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Select, Space, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { mealStrings } from './strings';
import { queryKey } from '../../api/query';

/** /principal_order's settings tab: the booking cutoff (the time, the same day or the day before). */
export function Settings() {
  const s = mealStrings.use();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: queryKey('mealSettings'), queryFn: () => get('mealSettings') });
  const [form] = Form.useForm<{ time: Dayjs; days_before: 0 | 1 }>();
  const time = Form.useWatch('time', form);
  const daysBefore = Form.useWatch('days_before', form);
  const save = useAction('setMealSettings', { success: s('goods.saved'), onDone: (d) => qc.setQueryData(queryKey('mealSettings'), d) });
  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => void q.refetch()} />;
  const hhmm = time ? time.format('HH:mm') : q.data!.cutoff_time;
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      initialValues={{ time: dayjs(`2000-01-01T${q.data!.cutoff_time}`), days_before: q.data!.days_before }}
      onFinish={(v) => void save.run({ cutoff_time: v.time.format('HH:mm'), days_before: v.days_before, version: q.data!.version })}
    >
      <Form.Item label={s('settings.cutoff')} required extra={s('settings.help')}>
        <Space.Compact>
          <Form.Item name="days_before" noStyle>
            <Select
              style={{ width: 110 }}
              aria-label={s('settings.cutoff_day')}
              options={[
                { value: 0, label: s('settings.same_day') },
                { value: 1, label: s('settings.day_before') },
              ]}
            />
          </Form.Item>
          <Form.Item name="time" noStyle rules={[{ required: true }]}>
            <TimePicker format="HH:mm" allowClear={false} needConfirm={false} aria-label={s('settings.cutoff_time')} style={{ width: 120 }} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Typography.Paragraph data-testid="cutoff-preview">
        {s(daysBefore ? 'settings.preview_before' : 'settings.preview', { time: hhmm })}
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={save.busy}>
        {s('settings.save')}
      </Button>
    </Form>
  );
}
