import { Image, Space, Tag, Typography } from 'antd';
import type { Homework, HomeworkAttachment, HomeworkState } from '@wantuo/shared';
import { homeworkStrings } from './strings';

const STATE_COLOR: Record<HomeworkState, string> = { todo: 'default', done: 'blue', checked: 'green' };

export function StateTag({ state }: { state: HomeworkState }) {
  const s = homeworkStrings.use();
  return <Tag color={STATE_COLOR[state]}>{s(`state.${state}`)}</Tag>;
}

export function KindTag({ kind }: { kind: Homework['kind'] }) {
  const s = homeworkStrings.use();
  return <Tag color={kind === 'care' ? 'cyan' : 'purple'}>{s(`kind.${kind}`)}</Tag>;
}

const isImage = (url: string) => /\.(png|jpe?g|gif|webp|bmp)(\?|$)/i.test(url);

/** The attachments: pictures as thumbnails (preview on tap), other files as links. */
export function Attachments({ files }: { files: HomeworkAttachment[] }) {
  if (!files.length) return null;
  return (
    <Space wrap size={8}>
      {files.map((f) =>
        isImage(f.url) ? (
          <Image key={f.url} src={f.url} alt={f.name} width={64} height={64} style={{ objectFit: 'cover', borderRadius: 4 }} />
        ) : (
          <Typography.Link key={f.url} href={f.url} target="_blank" rel="noreferrer">
            {f.name}
          </Typography.Link>
        ),
      )}
    </Space>
  );
}

/** "共 n 人 · 未完成 … · 已完成 … · 已检查 …" */
export function Counts({ h }: { h: Pick<Homework, 'students' | 'todo' | 'done' | 'checked'> }) {
  const s = homeworkStrings.use();
  return <Typography.Text type="secondary">{s('counts', { n: h.students, todo: h.todo, done: h.done, checked: h.checked })}</Typography.Text>;
}
