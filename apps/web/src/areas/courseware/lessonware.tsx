import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Modal, Select, Typography, Upload } from 'antd';
import type { CoursewareSectionRow, SaveCoursewareSectionInput } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { OWNED_PICKER } from './common';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { CoursewareTags, OwnedTag, SectionList } from './common';
import { coursewareStrings } from './strings';

/** /principalCenter_lessonware: an owned courseware's sections and their files; the school adds and edits its own sections. */
export default function Lessonware() {
  const s = coursewareStrings.use();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const owned = useQuery({ queryKey: queryKey('schoolCoursewareList', OWNED_PICKER), queryFn: () => get('schoolCoursewareList', OWNED_PICKER) });
  const chosen = id ?? owned.data?.list[0]?.id ?? null;
  const detail = useQuery({
    queryKey: queryKey('coursewareData', { id: chosen }),
    queryFn: () => get('coursewareData', { id: chosen }),
    enabled: chosen !== null,
  });
  const [editing, setEditing] = useState<CoursewareSectionRow | 'new' | null>(null);

  if (owned.isLoading || (chosen !== null && detail.isLoading)) return <Loading />;
  if (owned.isError) return <LoadError message={owned.error.message} onRetry={() => void owned.refetch()} />;
  if (chosen === null)
    return (
      <Card>
        <EmptyState description={s('owned.empty')}>
          <Button type="primary" onClick={() => navigate('/CoursewareResource')}>
            {s('owned.browse')}
          </Button>
        </EmptyState>
      </Card>
    );
  if (detail.isError || !detail.data) return <LoadError message={detail.error?.message} onRetry={() => void detail.refetch()} />;
  const c = detail.data;
  return (
    <Card>
      <Flex vertical gap={16}>
        <Flex wrap gap={8} justify="space-between" align="center">
          <Select<number>
            aria-label={s('lessonware.pick')}
            style={{ minWidth: 260, maxWidth: '100%' }}
            value={chosen}
            onChange={(v) => navigate(`/principalCenter_lessonware?id=${v}`)}
            options={[
              ...(owned.data?.list ?? []).map((r) => ({ value: r.id, label: r.title })),
              ...((owned.data?.list ?? []).some((r) => r.id === c.id) ? [] : [{ value: c.id, label: c.title }]),
            ]}
          />
          {c.owned && (
            <Button type="primary" onClick={() => setEditing('new')}>
              {s('lessonware.add_section')}
            </Button>
          )}
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {c.title} <OwnedTag row={c} />
          </Typography.Title>
          <CoursewareTags row={c} />
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {c.description}
          </Typography.Paragraph>
        </Flex>
        {!c.owned && <Typography.Text type="warning">{s('locked')}</Typography.Text>}
        <SectionList sections={c.sections_list} owned={c.owned} onEdit={(sec) => setEditing(sec)} />
      </Flex>
      {editing && <SectionForm coursewareId={c.id} section={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

type FileItem = { file_id?: string; video_url?: string; name: string };

/** Adds a section of the school's own (its files uploaded privately) or edits one: title, files (uploads and video links). */
function SectionForm({ coursewareId, section, onClose }: { coursewareId: number; section: CoursewareSectionRow | null; onClose: () => void }) {
  const s = coursewareStrings.use();
  const [form] = Form.useForm<{ title: string; video_url?: string; video_name?: string }>();
  const current = useQuery({
    queryKey: queryKey('coursewareFile', { section_id: section?.id }),
    queryFn: () => get('coursewareFile', { section_id: section!.id }),
    enabled: section !== null,
  });
  const [files, setFiles] = useState<FileItem[] | null>(section ? null : []);
  const list: FileItem[] =
    files ?? (current.data ?? []).map((f) => (f.kind === 'video' ? { video_url: f.url, name: f.name } : { file_id: f.file_id!, name: f.name }));
  // a refusal is shown by the request wrapper
  const saveSection = useAction('coursewareSection', {
    success: s('section.saved'),
    invalidates: ['coursewareData', 'coursewareFile'],
    onDone: onClose,
  });

  const save = async () => {
    // an invalid field is shown by the form itself
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const input: SaveCoursewareSectionInput = {
      courseware_id: coursewareId,
      title: v.title,
      files: list,
      ...(section ? { id: section.id, version: section.version } : {}),
    };
    await saveSection.run(input);
  };

  const addVideo = () => {
    const url = (form.getFieldValue('video_url') as string | undefined)?.trim();
    const name = (form.getFieldValue('video_name') as string | undefined)?.trim();
    if (!url || !/^https:\/\//.test(url) || !name) return;
    setFiles([...list, { video_url: url, name }]);
    form.setFieldsValue({ video_url: '', video_name: '' });
  };

  return (
    <Modal
      open
      title={section ? s('lessonware.edit_section') : s('lessonware.add_section')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={s('save')}
      cancelText={s('cancel')}
      confirmLoading={saveSection.busy}
      destroyOnHidden
    >
      {section && current.isLoading ? (
        <Loading />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ title: section?.title ?? '' }}>
          <Form.Item name="title" label={s('section.title')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 60 }]}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item label={s('section.files')}>
            <Flex vertical gap={8}>
              {list.map((f, i) => (
                <Flex key={`${f.file_id ?? f.video_url}-${i}`} justify="space-between" align="center" gap={8}>
                  <Typography.Text ellipsis>{f.video_url ? `🎬 ${f.name}` : `📄 ${f.name}`}</Typography.Text>
                  <Button size="small" danger onClick={() => setFiles(list.filter((_, j) => j !== i))}>
                    {s('section.remove')}
                  </Button>
                </Flex>
              ))}
              <Upload
                showUploadList={false}
                customRequest={async ({ file, onSuccess, onError }) => {
                  const data = new FormData();
                  data.append('file', file as Blob);
                  try {
                    const up = await upload('coursewareUpload', data);
                    setFiles((prev) => [...(prev ?? list), { file_id: up.id, name: up.name.slice(0, 100) }]);
                    onSuccess?.(up);
                  } catch (e) {
                    onError?.(e as Error);
                  }
                }}
              >
                <Button>{s('section.upload')}</Button>
              </Upload>
              <Flex gap={8} wrap>
                <Form.Item name="video_url" noStyle>
                  <Input placeholder={s('section.video')} style={{ flex: '2 1 200px' }} />
                </Form.Item>
                <Form.Item name="video_name" noStyle>
                  <Input placeholder={s('section.video_name')} style={{ flex: '1 1 120px' }} maxLength={100} />
                </Form.Item>
                <Button onClick={addVideo}>{s('section.add_video')}</Button>
              </Flex>
            </Flex>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
