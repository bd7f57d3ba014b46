import { DownloadOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SiteResource } from '@wantuo/shared';
import { resourceStrings } from './strings';
import { useSchoolClock } from '../../lib/school-time';

type Key = Parameters<ReturnType<typeof resourceStrings.use>>[0];

/** The kind of a file for people (PDF, 图片, Word 文档 …) from its mime type. */
export function typeKey(mime: string): Key {
  if (mime === 'application/pdf') return 'type.pdf';
  if (mime.startsWith('image/')) return 'type.image';
  if (mime.includes('word')) return 'type.word';
  if (mime.includes('sheet') || mime.includes('excel')) return 'type.excel';
  if (mime.includes('presentation') || mime.includes('powerpoint')) return 'type.ppt';
  return 'type.other';
}

/** 1.2 MB, 340 KB, 12 B. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** The columns every resource list shares: title (with its description), type, size, published, download. */
export function useResourceColumns(opts: { subject?: boolean; extra?: ColumnsType<SiteResource> } = {}): ColumnsType<SiteResource> {
  const s = resourceStrings.use();
  const clock = useSchoolClock();
  return [
    {
      title: s('col.title'),
      dataIndex: 'title',
      render: (v: string, r) => (
        <div>
          <Typography.Text strong>{v}</Typography.Text>
          {r.description && (
            <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 12 }} ellipsis={{ rows: 2 }}>
              {r.description}
            </Typography.Paragraph>
          )}
        </div>
      ),
    },
    ...(opts.subject
      ? ([
          { title: s('col.subject'), dataIndex: 'subject', width: 90, render: (v: string | null) => (v ? <Tag color="blue">{v}</Tag> : '-') },
          { title: s('col.grade'), dataIndex: 'grade', width: 90, render: (v: string | null) => v ?? '-' },
        ] as ColumnsType<SiteResource>)
      : []),
    { title: s('col.type'), dataIndex: 'mime', width: 110, responsive: ['sm'], render: (v: string) => s(typeKey(v)) },
    { title: s('col.size'), dataIndex: 'size', width: 90, responsive: ['sm'], render: (v: number) => fileSize(v) },
    { title: s('col.time'), dataIndex: 'created_at', width: 120, responsive: ['md'], render: (v: string) => clock.day(v) },
    ...(opts.extra ?? []),
    {
      title: s('col.action'),
      key: 'download',
      width: 90,
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          icon={<DownloadOutlined />}
          href={r.url}
          download={r.file_name}
          target="_blank"
          rel="noopener noreferrer"
          style={{ padding: 0 }}
        >
          {s('download')}
        </Button>
      ),
    },
  ];
}
