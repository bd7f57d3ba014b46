import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Modal, Radio, Segmented, Tag, Typography, Upload } from 'antd';
import type { AddResourceInput, ResourceAudience, SiteResource, UploadedFile } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { fileSize, useResourceColumns } from './common';
import { resourceStrings } from './strings';

const PAGE_SIZE = 20;

/** /operator_resources: the operator publishes files as public resources or materials for schools, and removes them. */
export default function OperatorResources() {
  const s = resourceStrings.use();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [audience, setAudience] = useState<ResourceAudience | 'all'>('all');
  const [keyword, setKeyword] = useState('');
  const [adding, setAdding] = useState(false);
  const input = { page, limit: PAGE_SIZE, ...(audience !== 'all' ? { audience } : {}), ...(keyword ? { keyword } : {}) };
  const q = useQuery({
    queryKey: queryKey('resourceAdminList', input),
    queryFn: () => get('resourceAdminList', input),
    placeholderData: (prev) => prev,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: queryKey('resourceAdminList') });
  const del = useAction('delResource', { success: s('op.removed'), invalidates: ['resourceAdminList'] });
  const remove = (r: SiteResource) =>
    feedback().modal.confirm({
      title: s('op.remove'),
      content: s('op.remove_confirm', { title: r.title }),
      okButtonProps: { danger: true },
      okText: s('op.remove'),
      cancelText: s('cancel'),
      onOk: () => del.run({ id: r.id }),
    });
  const columns = useResourceColumns({
    subject: true,
    extra: [
      {
        title: s('col.audience'),
        dataIndex: 'audience',
        width: 100,
        render: (v: ResourceAudience) => <Tag color={v === 'public' ? 'green' : 'purple'}>{s(`aud.${v}`)}</Tag>,
      },
      {
        title: '',
        key: 'remove',
        width: 70,
        render: (_: unknown, r: SiteResource) => (
          <Button type="link" size="small" danger onClick={() => remove(r)} style={{ padding: 0 }}>
            {s('op.remove')}
          </Button>
        ),
      },
    ],
  });
  return (
    <Card
      title={s('op.title')}
      extra={
        <Button type="primary" onClick={() => setAdding(true)}>
          {s('op.add')}
        </Button>
      }
    >
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Segmented
          value={audience}
          onChange={(v) => {
            setAudience(v as ResourceAudience | 'all');
            setPage(1);
          }}
          options={[
            { value: 'all', label: s('op.all') },
            { value: 'public', label: s('aud.public') },
            { value: 'schools', label: s('aud.schools') },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={s('search')}
          maxLength={50}
          style={{ maxWidth: 260 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
        />
      </Flex>
      <ServerTable<SiteResource>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        columns={columns}
        size="middle"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyState description={s('op.empty')} /> }}
      />
      {adding && (
        <AddResource
          onClose={() => setAdding(false)}
          onDone={() => {
            setAdding(false);
            setPage(1);
            refresh();
          }}
        />
      )}
    </Card>
  );
}

type Values = { audience: ResourceAudience; title: string; description?: string; subject?: string; grade?: string };

function AddResource({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const s = resourceStrings.use();
  const [form] = Form.useForm<Values>();
  const audience = Form.useWatch('audience', form);
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [fileError, setFileError] = useState(false);
  const add = useAction('addResource', { success: s('op.published'), onDone });
  const submit = async () => {
    // an invalid field is shown by the form itself
    const v = await form.validateFields().catch(() => null);
    if (!file) setFileError(true);
    if (!v || !file) return;
    const body: AddResourceInput = {
      audience: v.audience,
      title: v.title.trim(),
      description: v.description?.trim() || undefined,
      subject: v.audience === 'schools' ? v.subject?.trim() || null : null,
      grade: v.audience === 'schools' ? v.grade?.trim() || null : null,
      file_id: file.id,
    };
    await add.run(body);
  };
  return (
    <Modal
      open
      title={s('op.add')}
      onCancel={onClose}
      okText={s('form.ok')}
      cancelText={s('cancel')}
      okButtonProps={{ loading: add.busy }}
      onOk={() => void submit()}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ audience: 'public' }}>
        <Form.Item name="audience" label={s('form.audience')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'public', label: s('aud.public') },
              { value: 'schools', label: s('aud.schools') },
            ]}
          />
        </Form.Item>
        <Form.Item
          label={s('form.file')}
          required
          validateStatus={fileError ? 'error' : undefined}
          help={fileError ? s('form.file_rule') : undefined}
        >
          <Flex gap={8} align="center" wrap>
            <Upload
              showUploadList={false}
              customRequest={async ({ file: f, onSuccess, onError }) => {
                const fd = new FormData();
                fd.append('file', f as Blob);
                setUploading(true);
                try {
                  const res = await upload('upload', fd);
                  setFile(res);
                  setFileError(false);
                  if (!form.getFieldValue('title')) form.setFieldValue('title', res.name.replace(/\.[^.]+$/, '').slice(0, 100));
                  onSuccess?.(res);
                } catch (e) {
                  onError?.(e as Error);
                } finally {
                  setUploading(false);
                }
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading}>
                {s('form.upload')}
              </Button>
            </Upload>
            {file && <Typography.Text data-testid="resource-file">{`${file.name}（${fileSize(file.size)}）`}</Typography.Text>}
          </Flex>
        </Form.Item>
        <Form.Item name="title" label={s('form.title')} rules={[{ required: true, whitespace: true, max: 100, message: s('form.title_rule') }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="description" label={s('form.description')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        {audience === 'schools' && (
          <Flex gap={12}>
            <Form.Item name="subject" label={s('form.subject')} style={{ flex: 1 }}>
              <Input maxLength={20} placeholder={s('form.subject_hint')} />
            </Form.Item>
            <Form.Item name="grade" label={s('form.grade')} style={{ flex: 1 }}>
              <Input maxLength={20} placeholder={s('form.grade_hint')} />
            </Form.Item>
          </Flex>
        )}
      </Form>
    </Modal>
  );
}
