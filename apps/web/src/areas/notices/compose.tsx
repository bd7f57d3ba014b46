import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Drawer, Flex, Form, Input, Radio, Spin, Switch, Upload, type UploadFile } from 'antd';
import { NOTICE_MAX_ATTACHMENTS, type NoticeAudience, type NoticeScope } from '@wantuo/shared';
import { lazy, Suspense, useState } from 'react';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { LoadError } from '../../components/states';
import { newRequestId } from '../../lib/request-id';
import { useSchoolClock } from '../../lib/school-time';
import { noticesStrings } from './strings';

// the editor loads with the form only, not with the list
const RichEditor = lazy(() => import('./rich-editor'));

interface Values {
  title: string;
  scope: NoticeScope;
  class_ids?: number[];
  audience: NoticeAudience;
  important: boolean;
  content: string;
}

/** The classes the caller may publish to: a teacher's own (teacherWantuoInfo), every running class for the admin. */
function useClasses(isAdmin: boolean) {
  return useQuery({
    queryKey: ['noticeClasses', isAdmin],
    queryFn: async () =>
      isAdmin
        ? (await get('classList', { page: 1, limit: 100, status: 1 })).list.map((c) => ({ id: c.id, name: c.name }))
        : (await get('teacherWantuoInfo')).classes.map((c) => ({ id: c.id, name: c.name })),
  });
}

/** The lazy editor as a form field (Form.Item gives its direct child value and onChange). */
function LazyEditor(props: { value?: string; onChange?: (html: string) => void; id?: string }) {
  return (
    <Suspense fallback={<Spin />}>
      <RichEditor {...props} />
    </Suspense>
  );
}

/** Compose and publish a notice (a drawer, full width on a phone). */
export function ComposeDrawer({ open, onClose, isAdmin }: { open: boolean; onClose: () => void; isAdmin: boolean }) {
  const s = noticesStrings.use();
  const when = useSchoolClock().dateTime;
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<Array<UploadFile & { fileId?: string }>>([]);
  const [requestId, setRequestId] = useState(newRequestId);
  // a refusal is shown by the request wrapper; the same request id again is safe (the API publishes it once)
  const publish = useAction('teacherAddInform', {
    success: (res) =>
      res.held && res.sms_at ? s('published_held', { n: res.recipients, time: when(res.sms_at) }) : s('published', { n: res.recipients }),
    onDone: () => {
      // every notice list and count (their keys start with 'notices')
      void qc.invalidateQueries({ queryKey: ['notices'] });
      reset();
      onClose();
    },
  });
  const classes = useClasses(isAdmin);
  const scope = Form.useWatch('scope', form) ?? 'classes';
  const important = Form.useWatch('important', form) ?? false;

  const reset = () => {
    form.resetFields();
    setFiles([]);
    setRequestId(newRequestId());
  };

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    // the scope field is the admin's only: a teacher publishes to classes
    const scope: NoticeScope = isAdmin ? v.scope : 'classes';
    await publish.run({
      title: v.title,
      content: v.content,
      scope,
      ...(scope === 'classes' ? { class_ids: v.class_ids } : {}),
      audience: v.audience,
      important: v.important,
      attachments: files.filter((f) => f.fileId).map((f) => f.fileId!),
      request_id: requestId,
    });
  };

  const uploading = files.some((f) => f.status === 'uploading');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={s('compose')}
      size={Math.min(560, typeof window === 'undefined' ? 560 : window.innerWidth)}
      destroyOnHidden={false}
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{s('cancel')}</Button>
          <Button type="primary" loading={publish.busy} disabled={uploading} onClick={() => void submit()} data-testid="notice-publish">
            {s('form.publish')}
          </Button>
        </Flex>
      }
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ scope: 'classes', audience: 'guardians', important: false, content: '' }}
        requiredMark={false}
      >
        <Form.Item name="title" label={s('form.title')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={60} showCount placeholder={s('form.title_ph')} />
        </Form.Item>
        {isAdmin && (
          <Form.Item name="scope" label={s('form.scope')}>
            <Radio.Group
              options={[
                { value: 'classes', label: s('form.scope_classes') },
                { value: 'school', label: s('form.scope_school') },
              ]}
            />
          </Form.Item>
        )}
        {scope === 'classes' &&
          (classes.isLoading ? (
            <Spin />
          ) : classes.isError ? (
            <LoadError onRetry={() => void classes.refetch()} />
          ) : (classes.data?.length ?? 0) === 0 ? (
            <Alert type="warning" showIcon title={s('form.no_classes')} style={{ marginBottom: 16 }} />
          ) : (
            <Form.Item
              name="class_ids"
              label={s('form.classes')}
              initialValue={classes.data!.length === 1 ? [classes.data![0].id] : undefined}
              rules={[{ required: true, type: 'array', min: 1, message: s('form.classes_required') }]}
            >
              <Checkbox.Group options={classes.data!.map((c) => ({ value: c.id, label: c.name }))} />
            </Form.Item>
          ))}
        <Form.Item name="audience" label={s('form.audience')}>
          <Radio.Group options={(['guardians', 'staff', 'all'] as const).map((a) => ({ value: a, label: s(`aud.${a}`) }))} />
        </Form.Item>
        <Form.Item name="important" label={s('form.important')} valuePropName="checked" extra={important ? s('form.important_hint') : undefined}>
          <Switch />
        </Form.Item>
        <Form.Item name="content" label={s('form.content')} rules={[{ required: true, whitespace: true, message: s('form.content_required') }]}>
          <LazyEditor />
        </Form.Item>
        <Form.Item label={s('form.attachments')}>
          <Upload
            fileList={files}
            maxCount={NOTICE_MAX_ATTACHMENTS}
            onRemove={(f) => setFiles((prev) => prev.filter((x) => x.uid !== f.uid))}
            customRequest={async ({ file, onSuccess, onError }) => {
              const raw = file as File & { uid: string };
              setFiles((prev) => [...prev, { uid: raw.uid, name: raw.name, status: 'uploading' }]);
              const fd = new FormData();
              fd.append('file', raw);
              try {
                const res = await upload('upload', fd);
                setFiles((prev) => prev.map((x) => (x.uid === raw.uid ? { ...x, status: 'done', url: res.url, fileId: res.id } : x)));
                onSuccess?.(res);
              } catch (e) {
                setFiles((prev) => prev.map((x) => (x.uid === raw.uid ? { ...x, status: 'error' } : x)));
                onError?.(e as Error);
              }
            }}
          >
            <Button icon={<UploadOutlined />} disabled={files.length >= NOTICE_MAX_ATTACHMENTS}>
              {s('form.upload')}
            </Button>
          </Upload>
        </Form.Item>
      </Form>
    </Drawer>
  );
}
