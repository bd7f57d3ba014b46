import { useQuery } from '@tanstack/react-query';
import { Button, Flex, List, Modal, Select, Typography } from 'antd';
import type { CoursewareFileRow } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { lessonStrings } from './lesson-strings';

/** Picks files of owned courseware: a courseware (searched on the server), one of its sections, its files. */
export function ItemPicker({
  chosen,
  onAdd,
  onClose,
}: {
  chosen: Set<number>;
  onAdd: (f: CoursewareFileRow, courseware: string) => void;
  onClose: () => void;
}) {
  const s = lessonStrings.use();
  const [keyword, setKeyword] = useState('');
  const [courseware, setCourseware] = useState<number | null>(null);
  const [section, setSection] = useState<number | null>(null);
  const ownedInput = { page: 1, limit: 50, keyword: keyword || undefined };
  const owned = useQuery({ queryKey: queryKey('schoolCoursewareList', ownedInput), queryFn: () => get('schoolCoursewareList', ownedInput) });
  const sections = useQuery({
    queryKey: queryKey('coursewareSection', { courseware_id: courseware }),
    queryFn: () => get('coursewareSection', { courseware_id: courseware }),
    enabled: courseware !== null,
  });
  const files = useQuery({
    queryKey: queryKey('coursewareFile', { section_id: section }),
    queryFn: () => get('coursewareFile', { section_id: section }),
    enabled: section !== null,
    staleTime: 300_000,
  });
  const cwTitle = owned.data?.list.find((c) => c.id === courseware)?.title ?? '';
  const [added, setAdded] = useState<Set<number>>(new Set());
  return (
    <Modal open title={s('picker.title')} onCancel={onClose} footer={<Button onClick={onClose}>{s('cancel')}</Button>} destroyOnHidden>
      <Flex vertical gap={12}>
        {owned.isError && <LoadError message={owned.error.message} onRetry={() => void owned.refetch()} />}
        {owned.data && owned.data.total === 0 && !keyword ? (
          <EmptyState description={s('picker.none_owned')} />
        ) : (
          <>
            <Select<number>
              aria-label={s('picker.courseware')}
              placeholder={s('picker.courseware')}
              loading={owned.isLoading}
              value={courseware ?? undefined}
              showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim().slice(0, 32)) }}
              onChange={(v) => {
                setCourseware(v);
                setSection(null);
              }}
              options={(owned.data?.list ?? []).map((c) => ({ value: c.id, label: c.title }))}
            />
            <Select<number>
              aria-label={s('picker.section')}
              placeholder={s('picker.section')}
              disabled={courseware === null}
              loading={sections.isLoading}
              value={section ?? undefined}
              onChange={setSection}
              options={(sections.data ?? []).map((x) => ({ value: x.id, label: x.title }))}
            />
            {section === null ? (
              <Typography.Text type="secondary">{s('picker.choose')}</Typography.Text>
            ) : files.isLoading ? (
              <Loading />
            ) : files.isError ? (
              <LoadError message={files.error.message} onRetry={() => void files.refetch()} />
            ) : (
              <List
                size="small"
                dataSource={files.data ?? []}
                locale={{ emptyText: <EmptyState /> }}
                renderItem={(f) => {
                  const isIn = chosen.has(f.id) || added.has(f.id);
                  return (
                    <List.Item
                      actions={[
                        <Button
                          key="add"
                          size="small"
                          type={isIn ? 'default' : 'primary'}
                          onClick={() => {
                            onAdd(f, cwTitle);
                            setAdded((a) => new Set(a).add(f.id));
                          }}
                        >
                          {isIn ? s('picker.added') : s('picker.add')}
                        </Button>,
                      ]}
                    >
                      <List.Item.Meta
                        title={f.name}
                        description={f.kind === 'pdf' && f.pages ? `PDF · ${s('pages_all', { n: f.pages })}` : f.kind.toUpperCase()}
                      />
                    </List.Item>
                  );
                }}
              />
            )}
          </>
        )}
      </Flex>
    </Modal>
  );
}
