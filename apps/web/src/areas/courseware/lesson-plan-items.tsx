import { Button, Card, Flex, Input, Space, Tag, Typography } from 'antd';
import type { CoursewareFileRow, PagesParse } from '@wantuo/shared';
import { EmptyState } from '../../components/states';
import { viewerHref } from './common';
import { lessonStrings } from './lesson-strings';

/** One courseware file of the plan as edited: the pages as typed (checked with parsePages as they are typed). */
export interface EditItem {
  key: string;
  file_id: number;
  name: string;
  kind: CoursewareFileRow['kind'];
  courseware_title: string;
  section_title: string;
  total_pages: number | null;
  pagesText: string;
  note: string;
  open: boolean;
  url: string | null;
}

let seq = 0;
export const itemKey = () => `i${++seq}`;

/** The courseware files of a plan as edited, in order: the pages (PDF, checked as typed) and a note; moved up or down, deleted. */
export function PlanItems({
  items,
  parsed,
  readOnly,
  onChange,
  onMove,
  onRemove,
}: {
  items: EditItem[];
  parsed: PagesParse[];
  readOnly: boolean;
  onChange: (key: string, patch: Partial<EditItem>) => void;
  onMove: (index: number, dir: -1 | 1) => void;
  onRemove: (key: string) => void;
}) {
  const s = lessonStrings.use();
  return items.length === 0 ? (
    <EmptyState description={s('no_items')} />
  ) : (
    <Flex vertical gap={8}>
      {items.map((it, i) => {
        const p = parsed[i];
        return (
          <Card key={it.key} size="small" styles={{ body: { padding: 12 } }} data-testid="plan-item">
            <Flex vertical gap={8}>
              <Flex justify="space-between" gap={8} wrap>
                <Flex vertical style={{ minWidth: 0, flex: '1 1 200px' }}>
                  <Typography.Text strong ellipsis>
                    {i + 1}. {it.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                    {it.courseware_title} · {it.section_title}
                  </Typography.Text>
                </Flex>
                <Space size={4} wrap>
                  {it.open ? <Tag>{it.kind.toUpperCase()}</Tag> : <Tag color="red">{s('locked')}</Tag>}
                  {it.open && it.kind === 'pdf' && it.url && (
                    <Button size="small" type="link" onClick={() => window.open(viewerHref({ url: it.url!, name: it.name }), '_blank', 'noopener')}>
                      {s('preview')}
                    </Button>
                  )}
                  {!readOnly && (
                    <>
                      <Button size="small" disabled={i === 0} onClick={() => onMove(i, -1)} aria-label={s('up')}>
                        ↑
                      </Button>
                      <Button size="small" disabled={i === items.length - 1} onClick={() => onMove(i, 1)} aria-label={s('down')}>
                        ↓
                      </Button>
                      <Button size="small" danger onClick={() => onRemove(it.key)}>
                        {s('delete')}
                      </Button>
                    </>
                  )}
                </Space>
              </Flex>
              <Flex gap={8} wrap>
                {it.kind === 'pdf' && (
                  <Flex vertical style={{ flex: '1 1 140px', minWidth: 0 }}>
                    <Input
                      size="small"
                      disabled={readOnly}
                      value={it.pagesText}
                      onChange={(e) => onChange(it.key, { pagesText: e.target.value })}
                      placeholder={s('pages_all', { n: it.total_pages ?? '?' })}
                      addonBefore={s('pages')}
                      status={p.ok ? undefined : 'error'}
                      aria-label={s('pages')}
                    />
                    {!p.ok && (
                      <Typography.Text type="danger" style={{ fontSize: 12 }}>
                        {s(p.error, { max: it.total_pages ?? '?' })}
                      </Typography.Text>
                    )}
                  </Flex>
                )}
                <Input
                  size="small"
                  disabled={readOnly}
                  value={it.note}
                  maxLength={100}
                  onChange={(e) => onChange(it.key, { note: e.target.value })}
                  addonBefore={s('note')}
                  style={{ flex: '1 1 160px', minWidth: 0 }}
                  aria-label={s('note')}
                />
              </Flex>
            </Flex>
          </Card>
        );
      })}
    </Flex>
  );
}
