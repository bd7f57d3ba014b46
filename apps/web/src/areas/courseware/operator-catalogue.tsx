import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, InputNumber, Modal, Segmented, Space, Switch, Table, Tabs, Tag, Typography, Upload } from 'antd';
import {
  formatFen,
  type CoursewareDictEntry,
  type CoursewareDictKind,
  type EditCoursewareInput,
  type OperatorCoursewareRow,
  type PublishCoursewareInput,
} from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { CoursewareTags, DICT_ACTIONS, DICT_KINDS, DictSelect, useDict } from './common';
import { coursewareStrings } from './strings';

const PAGE = 20;

/** /operator_courseware: the operator's catalogue: courseware (publish, edit, withdraw) and the six dictionaries. */
export default function OperatorCatalogue() {
  const s = coursewareStrings.use();
  return (
    <Card>
      <Tabs
        items={[
          { key: 'courseware', label: s('op.tab_courseware'), children: <CoursewareTab /> },
          { key: 'dicts', label: s('op.tab_dicts'), children: <DictsTab /> },
        ]}
      />
    </Card>
  );
}

type Status = 'all' | '1' | '0';

function CoursewareTab() {
  const s = coursewareStrings.use();
  const [status, setStatus] = useState<Status>('all');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [form, setForm] = useState<OperatorCoursewareRow | 'new' | null>(null);
  const params = { keyword: keyword || undefined, status: status === 'all' ? undefined : Number(status), page, limit: PAGE };
  const list = useQuery({
    queryKey: queryKey('operatorCoursewareList', params),
    queryFn: () => get('operatorCoursewareList', params),
    placeholderData: keepPreviousData,
  });
  return (
    <Flex vertical gap={16}>
      <Flex wrap gap={8} justify="space-between">
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={s('keyword')}
            style={{ width: 220 }}
            onSearch={(v) => {
              setPage(1);
              setKeyword(v.trim());
            }}
          />
          <Segmented<Status>
            value={status}
            onChange={(v) => {
              setPage(1);
              setStatus(v);
            }}
            options={[
              { value: 'all', label: s('all') },
              { value: '1', label: s('op.on_sale') },
              { value: '0', label: s('op.withdrawn') },
            ]}
          />
        </Space>
        <Button type="primary" onClick={() => setForm('new')}>
          {s('op.publish')}
        </Button>
      </Flex>
      <ServerTable<OperatorCoursewareRow>
        query={list}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 760 }}
        locale={{ emptyText: <EmptyState /> }}
        columns={[
          { title: s('col.title'), dataIndex: 'title' },
          { title: s('col.tags'), key: 'tags', render: (_, r) => <CoursewareTags row={r} /> },
          { title: s('col.sections'), dataIndex: 'sections', width: 80, render: (n: number) => s('sections_n', { n }) },
          { title: s('col.price'), dataIndex: 'price_fen', width: 100, render: (f: number) => `¥${formatFen(f)}` },
          { title: s('col.buyers'), dataIndex: 'buyers', width: 90, render: (n: number) => s('op.buyers_n', { n }) },
          {
            title: s('col.state'),
            dataIndex: 'status',
            width: 90,
            render: (v: number) => (v === 1 ? <Tag color="green">{s('op.on_sale')}</Tag> : <Tag>{s('op.withdrawn')}</Tag>),
          },
          {
            title: s('col.actions'),
            key: 'a',
            width: 90,
            render: (_, r) => (
              <Button size="small" onClick={() => setForm(r)}>
                {s('edit')}
              </Button>
            ),
          },
        ]}
      />
      {form === 'new' && <PublishForm onClose={() => setForm(null)} />}
      {form && form !== 'new' && <EditForm row={form} onClose={() => setForm(null)} />}
    </Flex>
  );
}

type SectionDraft = { title: string; files: Array<{ file_id?: string; video_url?: string; name: string }> };

const DICT_FIELDS = DICT_KINDS.map((k) => `${k}_id` as const);

function DictFields() {
  const s = coursewareStrings.use();
  return (
    <Flex wrap gap={8}>
      {DICT_KINDS.map((kind) => (
        <Form.Item
          key={kind}
          name={`${kind}_id`}
          label={s(`dict.${kind}`)}
          rules={kind === 'subject' ? [{ required: true, message: s('required') }] : []}
          style={{ minWidth: 140 }}
        >
          <DictFieldSelect kind={kind} />
        </Form.Item>
      ))}
    </Flex>
  );
}

/** A dictionary select as a form control. */
function DictFieldSelect({ kind, value, onChange }: { kind: CoursewareDictKind; value?: number | null; onChange?: (v: number | null) => void }) {
  return <DictSelect kind={kind} value={value} onChange={(v) => onChange?.(v ?? null)} style={{ width: 140 }} />;
}

function PublishForm({ onClose }: { onClose: () => void }) {
  const s = coursewareStrings.use();
  const [form] = Form.useForm();
  const [sections, setSections] = useState<SectionDraft[]>([{ title: '', files: [] }]);
  const publish = useAction('publishCourseware', { success: s('op.published'), invalidates: ['operatorCoursewareList'], onDone: onClose });
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const input: PublishCoursewareInput = {
      title: v.title,
      ...Object.fromEntries(DICT_FIELDS.map((f) => [f, v[f] ?? null])),
      subject_id: v.subject_id,
      description: v.description ?? '',
      price_fen: Math.round(Number(v.price) * 100),
      sections: sections.map((x) => ({ title: x.title.trim(), files: x.files })),
    };
    await publish.run(input);
  };
  return (
    <Modal
      open
      width={760}
      title={s('op.publish')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={s('save')}
      cancelText={s('cancel')}
      confirmLoading={publish.busy}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item name="title" label={s('col.title')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 60 }]}>
          <Input maxLength={60} />
        </Form.Item>
        <DictFields />
        <Form.Item name="price" label={s('op.price_yuan')} rules={[{ required: true, message: s('required') }]}>
          <InputNumber min={0.01} max={100000} precision={2} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="description" label={s('description')}>
          <Input.TextArea maxLength={2000} rows={3} />
        </Form.Item>
      </Form>
      <Typography.Title level={5}>{s('sections')}</Typography.Title>
      <Flex vertical gap={12}>
        {sections.map((sec, i) => (
          <Card key={i} size="small">
            <Flex vertical gap={8}>
              <Input
                placeholder={s('section.title')}
                value={sec.title}
                maxLength={60}
                onChange={(e) => setSections(sections.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))}
              />
              {sec.files.map((f, k) => (
                <Typography.Text key={k}>📄 {f.name}</Typography.Text>
              ))}
              <Upload
                showUploadList={false}
                customRequest={async ({ file, onSuccess, onError }) => {
                  const data = new FormData();
                  data.append('file', file as Blob);
                  try {
                    const up = await upload('coursewareUpload', data);
                    setSections((prev) =>
                      prev.map((x, j) => (j === i ? { ...x, files: [...x.files, { file_id: up.id, name: up.name.slice(0, 100) }] } : x)),
                    );
                    onSuccess?.(up);
                  } catch (e) {
                    onError?.(e as Error);
                  }
                }}
              >
                <Button size="small">{s('section.upload')}</Button>
              </Upload>
            </Flex>
          </Card>
        ))}
        <Button onClick={() => setSections([...sections, { title: '', files: [] }])}>{s('op.add_section')}</Button>
      </Flex>
    </Modal>
  );
}

function EditForm({ row, onClose }: { row: OperatorCoursewareRow; onClose: () => void }) {
  const s = coursewareStrings.use();
  const [form] = Form.useForm();
  const editAction = useAction('editCourseware', { success: s('op.saved'), invalidates: ['operatorCoursewareList'], onDone: onClose });
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const input: EditCoursewareInput = {
      id: row.id,
      version: row.version,
      title: v.title,
      ...Object.fromEntries(DICT_FIELDS.map((f) => [f, v[f] ?? null])),
      subject_id: v.subject_id,
      description: v.description ?? '',
      price_fen: Math.round(Number(v.price) * 100),
      status: v.on_sale ? 1 : 0,
    };
    await editAction.run(input);
  };
  return (
    <Modal
      open
      width={760}
      title={s('op.edit')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={s('save')}
      cancelText={s('cancel')}
      confirmLoading={editAction.busy}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          ...Object.fromEntries(DICT_FIELDS.map((f) => [f, row[f]])),
          title: row.title,
          description: row.description,
          price: row.price_fen / 100,
          on_sale: row.status === 1,
        }}
      >
        <Form.Item name="title" label={s('col.title')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 60 }]}>
          <Input maxLength={60} />
        </Form.Item>
        <DictFields />
        <Form.Item name="price" label={s('op.price_yuan')} rules={[{ required: true, message: s('required') }]}>
          <InputNumber min={0.01} max={100000} precision={2} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="description" label={s('description')}>
          <Input.TextArea maxLength={2000} rows={3} />
        </Form.Item>
        <Form.Item name="on_sale" label={s('op.on_sale')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DictsTab() {
  const s = coursewareStrings.use();
  const [kind, setKind] = useState<CoursewareDictKind>('subject');
  return (
    <Flex vertical gap={12}>
      <Segmented<CoursewareDictKind> value={kind} onChange={setKind} options={DICT_KINDS.map((k) => ({ value: k, label: s(`dict.${k}`) }))} />
      <DictTable kind={kind} key={kind} />
    </Flex>
  );
}

function DictTable({ kind }: { kind: CoursewareDictKind }) {
  const s = coursewareStrings.use();
  const dict = useDict(kind, true);
  const [name, setName] = useState('');
  // one write at a time (the switches wait while one is saved); a refusal is shown by the request wrapper
  const saveDict = useAction('saveCoursewareDict', { success: s('op.saved'), invalidates: [DICT_ACTIONS[kind]] });
  const save = (body: { id?: number; name: string; sort?: number; active?: boolean; version?: number }) => saveDict.run({ kind, ...body });
  if (dict.isLoading) return <Loading />;
  if (dict.isError) return <LoadError message={dict.error.message} onRetry={() => void dict.refetch()} />;
  return (
    <Flex vertical gap={12}>
      <Space.Compact style={{ maxWidth: 360 }}>
        <Input placeholder={s('op.dict_name')} value={name} maxLength={30} onChange={(e) => setName(e.target.value)} />
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={saveDict.busy && saveDict.input?.id === undefined}
          onClick={() => void save({ name: name.trim(), sort: ((dict.data?.length ?? 0) + 1) * 10 }).then((ok) => ok && setName(''))}
        >
          {s('op.dict_add')}
        </Button>
      </Space.Compact>
      <Table<CoursewareDictEntry>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={dict.data}
        columns={[
          { title: s('op.dict_name'), dataIndex: 'name' },
          { title: s('op.dict_sort'), dataIndex: 'sort', width: 100 },
          {
            title: s('op.dict_active'),
            dataIndex: 'active',
            width: 100,
            render: (active: boolean, r) => (
              <Switch
                size="small"
                checked={active}
                disabled={saveDict.busy}
                loading={saveDict.busy && saveDict.input?.id === r.id}
                onChange={(v) => void save({ id: r.id, name: r.name, active: v, version: r.version })}
              />
            ),
          },
        ]}
      />
    </Flex>
  );
}
