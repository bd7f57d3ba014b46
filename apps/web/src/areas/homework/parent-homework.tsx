import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Form, Image, Input, Modal, Space, Typography, Upload } from 'antd';
import { guardianMayMarkDone, type ParentChild, type StudentHomework } from '@wantuo/shared';
import dayjs from 'dayjs';
import { useState } from 'react';
import { get } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { Attachments, KindTag, StateTag } from './common';
import { homeworkStrings } from './strings';
import { uploadHomeworkPhoto, useDoneAtHome } from './use-done-at-home';
import './homework.css';
import { ChildSwitcher, ParentChildren } from '../parent/children-gate';
import { queryKey } from '../../api/query';

/** /parent_homework: each child's homework of a day (today first): state, the teacher's note, done at home with a photo. */
export default function ParentHomework() {
  const s = homeworkStrings.use();
  return (
    <Flex vertical gap={12} className="hw-page">
      <ParentChildren empty={s('parent.no_children')}>{(kids) => <ChildHomework kids={kids} />}</ParentChildren>
    </Flex>
  );
}

function ChildHomework({ kids }: { kids: ParentChild[] }) {
  const s = homeworkStrings.use();
  const [current, setCurrent] = useState(kids[0].id);
  const today = useSchoolToday();
  const [day, setDay] = useState(today);
  const [doing, setDoing] = useState<StudentHomework | null>(null);
  const q = useQuery({
    queryKey: queryKey('wantuoStudentHomeWork', { student_id: current, day }),
    queryFn: () => get('wantuoStudentHomeWork', { student_id: current, day }),
  });
  return (
    <>
      <ChildSwitcher kids={kids} value={current} onChange={(id) => setCurrent(id)} />
      <DatePicker
        aria-label={s('parent.day')}
        value={dayjs(day)}
        allowClear={false}
        inputReadOnly
        onChange={(d) => d && setDay(d.format('YYYY-MM-DD'))}
        style={{ width: '100%' }}
      />
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : !q.data?.list.length ? (
        <Card>
          <EmptyState description={s('parent.empty')} />
        </Card>
      ) : (
        q.data.list.map((h) => (
          <Card key={h.id} size="small" className="hw-card" title={h.title} extra={<StateTag state={h.state} />} data-testid="parent-homework">
            <Space direction="vertical" size={6} style={{ width: '100%' }}>
              <div>
                <KindTag kind={h.kind} />
                <Typography.Text type="secondary">
                  {h.class_name} · {h.teacher_name} · {s('due', { day: h.due_day })}
                </Typography.Text>
              </div>
              <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>{h.content}</Typography.Paragraph>
              <Attachments files={h.attachments} />
              {h.note && (
                <Typography.Text>
                  {s('teacher_note')}：{h.note}
                </Typography.Text>
              )}
              {h.photo_url && (
                <Flex gap={8} align="center">
                  <Image src={h.photo_url} width={64} height={64} style={{ objectFit: 'cover', borderRadius: 4 }} alt={s('photo')} />
                  {h.home_note && <Typography.Text type="secondary">{h.home_note}</Typography.Text>}
                </Flex>
              )}
              {guardianMayMarkDone(h.state) && (
                <Button type="primary" block size="large" onClick={() => setDoing(h)}>
                  {s('parent.mark_done')}
                </Button>
              )}
            </Space>
          </Card>
        ))
      )}
      <DoneAtHome homework={doing} studentId={current} onClose={() => setDoing(null)} />
    </>
  );
}

function DoneAtHome({ homework, studentId, onClose }: { homework: StudentHomework | null; studentId: number; onClose: () => void }) {
  const s = homeworkStrings.use();
  const [form] = Form.useForm<{ photo_url: string; note?: string }>();
  const done = useDoneAtHome(studentId);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !homework) return;
    if (await done.submit(homework.id, v.photo_url, v.note)) {
      form.resetFields();
      onClose();
    }
  };

  return (
    <Modal
      open={homework !== null}
      title={s('parent.dialog')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={s('parent.submit')}
      cancelText={s('cancel')}
      confirmLoading={done.saving}
      destroyOnHidden
    >
      <Typography.Paragraph strong>{homework?.title}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="photo_url" label={s('photo')} rules={[{ required: true, message: s('parent.photo_required') }]}>
          <PhotoField />
        </Form.Item>
        <Form.Item name="note" label={s('parent.note')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The photo of the homework: uploads a picture (the upload action) and holds its URL as the form value. */
function PhotoField({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const s = homeworkStrings.use();
  const [uploading, setUploading] = useState(false);
  return (
    <Space align="center" wrap>
      {value && <Image src={value} width={72} height={72} style={{ objectFit: 'cover', borderRadius: 4 }} alt={s('photo')} />}
      <Upload
        accept="image/*"
        showUploadList={false}
        customRequest={async ({ file, onSuccess, onError }) => {
          setUploading(true);
          try {
            const url = await uploadHomeworkPhoto(file as Blob);
            onChange?.(url);
            onSuccess?.({ url });
          } catch (e) {
            onError?.(e as Error);
          } finally {
            setUploading(false);
          }
        }}
      >
        <Button loading={uploading}>{s('parent.upload')}</Button>
      </Upload>
    </Space>
  );
}
