import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Input, Progress, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Homework, HomeworkKind } from '@wantuo/shared';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { KindTag } from './common';
import { homeworkStrings } from './strings';
import './homework.css';
import { queryKey } from '../../api/query';

const PAGE_SIZE = 20;

/** The classes of a kind for the class filter (the first 100, by name). */
function useClasses(kind: HomeworkKind | undefined) {
  return useQuery({
    queryKey: ['homeworkClassFilter', kind],
    queryFn: async () =>
      kind === 'teaching'
        ? (await get('teachingClassList', { limit: 100 })).list.map((c) => ({ value: c.id, label: c.name }))
        : (await get('classList', { limit: 100 })).list.map((c) => ({ value: c.id, label: c.name })),
    enabled: kind !== undefined,
  });
}

/** /principal_class_Job: the school's homework by class kind, class, the day it is open on and title, with progress. */
export default function PrincipalClassJob() {
  const s = homeworkStrings.use();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<HomeworkKind | undefined>();
  const [classId, setClassId] = useState<number | undefined>();
  const [day, setDay] = useState<string | undefined>();
  const [keyword, setKeyword] = useState('');
  const classes = useClasses(kind);
  const filtered = Boolean(kind || classId || day || keyword);
  const q = useQuery({
    queryKey: queryKey('classHomeWorks', { page, limit: PAGE_SIZE, kind, class_id: classId, day, keyword: keyword || undefined }),
    queryFn: () => get('classHomeWorks', { page, limit: PAGE_SIZE, kind, class_id: classId, day, keyword: keyword || undefined }),
  });
  const reset = (fn: () => void) => {
    fn();
    setPage(1);
  };

  const columns: ColumnsType<Homework> = [
    {
      title: s('col.title'),
      dataIndex: 'title',
      render: (_, h) => (
        <Flex vertical>
          <Typography.Link onClick={() => navigate(`/principal_class_Job1?id=${h.id}`)}>{h.title}</Typography.Link>
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320, fontSize: 12 }}>
            {h.content}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: s('col.class'),
      dataIndex: 'class_name',
      render: (_, h) => (
        <>
          <KindTag kind={h.kind} />
          {h.class_name}
        </>
      ),
    },
    { title: s('col.teacher'), dataIndex: 'teacher_name' },
    { title: s('col.set_day'), dataIndex: 'set_day' },
    { title: s('col.due_day'), dataIndex: 'due_day' },
    {
      title: s('col.progress'),
      key: 'progress',
      width: 220,
      render: (_, h) => (
        <Flex vertical gap={2}>
          <Progress
            percent={h.students ? Math.round(((h.done + h.checked) / h.students) * 100) : 0}
            success={{ percent: h.students ? Math.round((h.checked / h.students) * 100) : 0 }}
            size="small"
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s('state.todo')} {h.todo} · {s('state.done')} {h.done} · {s('state.checked')} {h.checked}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: s('col.actions'),
      key: 'actions',
      render: (_, h) => (
        <Button size="small" onClick={() => navigate(`/principal_class_Job1?id=${h.id}`)}>
          {s('view')}
        </Button>
      ),
    },
  ];

  return (
    <Card>
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={s('list.kind')}
          placeholder={s('list.kind')}
          allowClear
          style={{ width: 140 }}
          value={kind}
          options={(['care', 'teaching'] as const).map((k) => ({ value: k, label: s(`kind.${k}`) }))}
          onChange={(v) =>
            reset(() => {
              setKind(v);
              setClassId(undefined);
            })
          }
        />
        <Select
          aria-label={s('list.class')}
          placeholder={s('list.class')}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          disabled={!kind}
          loading={classes.isLoading}
          style={{ width: 180 }}
          value={classId}
          options={classes.data ?? []}
          onChange={(v) => reset(() => setClassId(v))}
        />
        <DatePicker
          aria-label={s('list.day')}
          placeholder={s('list.day')}
          value={day ? dayjs(day) : null}
          onChange={(d) => reset(() => setDay(d ? d.format('YYYY-MM-DD') : undefined))}
        />
        <Input.Search
          aria-label={s('list.keyword')}
          placeholder={s('list.keyword')}
          allowClear
          style={{ width: 200 }}
          onSearch={(v) => reset(() => setKeyword(v.trim()))}
        />
      </Flex>
      <ServerTable<Homework>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        columns={columns}
        scroll={{ x: 900 }}
        locale={{ emptyText: <EmptyState description={s(filtered ? 'list.empty_filtered' : 'list.empty')} /> }}
      />
    </Card>
  );
}
