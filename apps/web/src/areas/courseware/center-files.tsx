import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, List, Select, Tag, Typography } from 'antd';
import type { CoursewareFileKind } from '@wantuo/shared';
import { useNavigate, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { OWNED_PICKER } from './common';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { viewerHref } from './common';
import { coursewareStrings } from './strings';

/**
 * The files of one owned courseware across its sections, of some kinds: the supporting materials (documents, images)
 * and the recordings (videos) of /principalCenter. One request for the whole courseware.
 */
export function CenterFiles({ kinds, path, empty }: { kinds: CoursewareFileKind[]; path: string; empty: string }) {
  const s = coursewareStrings.use();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const owned = useQuery({ queryKey: queryKey('schoolCoursewareList', OWNED_PICKER), queryFn: () => get('schoolCoursewareList', OWNED_PICKER) });
  const chosen = Number(params.get('id')) || owned.data?.list[0]?.id || null;
  const filesInput = { courseware_id: chosen, ...(kinds.length === 1 ? { kind: kinds[0] } : {}) };
  const files = useQuery({
    queryKey: queryKey('coursewareFile', filesInput),
    queryFn: () => get('coursewareFile', filesInput),
    enabled: chosen !== null,
  });
  if (owned.isLoading || (chosen !== null && files.isLoading)) return <Loading />;
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
  if (files.isError) return <LoadError message={files.error.message} onRetry={() => void files.refetch()} />;
  const list = (files.data ?? []).filter((f) => kinds.includes(f.kind));
  return (
    <Card>
      <Flex vertical gap={16}>
        <Select<number>
          aria-label={s('lessonware.pick')}
          style={{ minWidth: 260, maxWidth: '100%', alignSelf: 'flex-start' }}
          value={chosen}
          onChange={(v) => navigate(`${path}?id=${v}`)}
          options={(owned.data?.list ?? []).map((r) => ({ value: r.id, label: r.title }))}
        />
        {list.length === 0 ? (
          <EmptyState description={empty} />
        ) : (
          <List
            dataSource={list}
            renderItem={(f) => (
              <List.Item
                actions={[
                  <Button
                    key="open"
                    type="link"
                    size="small"
                    {...(f.kind === 'pdf' ? { onClick: () => navigate(viewerHref(f)) } : { href: f.url, target: '_blank', rel: 'noreferrer' })}
                  >
                    {f.kind === 'video' ? s('file.play') : f.kind === 'other' ? s('file.download') : s('file.view')}
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={f.name}
                  description={
                    <Flex gap={8} wrap align="center">
                      <Tag>{s(`file.${f.kind}`)}</Tag>
                      <Typography.Text type="secondary">{f.section_title}</Typography.Text>
                      {f.kind === 'pdf' && f.pages ? <span>{s('file.pages', { n: f.pages })}</span> : null}
                    </Flex>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Flex>
    </Card>
  );
}
