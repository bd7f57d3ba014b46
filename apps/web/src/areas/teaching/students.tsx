import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Flex, Input, Modal, Popconfirm, Table, Typography } from 'antd';
import type { PostInput, SelectableStudent, TeachingClass, TeachingClassMember } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { teachingStrings } from './strings';

const PAGE = 20;

/**
 * A teaching class's students (teachingClassStudent): add (selectTeachingClassStudent, the places left shown) and
 * remove; `readOnly` (the class's teacher, who may not change who is in it): the list only.
 */
export function StudentsTab({ cls, onChanged, readOnly = false }: { cls: TeachingClass; onChanged: () => void; readOnly?: boolean }) {
  const s = teachingStrings.use();
  const clock = useSchoolClock();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const q = useQuery({
    queryKey: queryKey('teachingClassStudent', { class_id: cls.id, page, limit: PAGE }),
    queryFn: () => get('teachingClassStudent', { class_id: cls.id, page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const del = useAction('delTeachingClassStudent', { success: s('saved'), onDone: onChanged });
  const remove = (m: TeachingClassMember) => del.run({ class_id: cls.id, student_id: m.id });
  const left = Math.max(0, cls.capacity - cls.students);
  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{s('stu.room_left', { capacity: cls.capacity, current: cls.students, left })}</Typography.Text>
        {!readOnly && (
          <Button type="primary" disabled={left === 0} onClick={() => setAdding(true)}>
            {s('stu.add')}
          </Button>
        )}
      </Flex>
      <ServerTable<TeachingClassMember>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        scroll={{ x: 600 }}
        locale={{ emptyText: <EmptyState description={s('stu.empty')} /> }}
        columns={[
          { title: s('stu.name'), dataIndex: 'name', width: 120 },
          { title: s('stu.grade'), dataIndex: 'grade', width: 90, render: (v: string | null) => v ?? '-' },
          { title: s('stu.class'), dataIndex: 'class_name', width: 120, render: (v: string | null) => v ?? '-' },
          { title: s('stu.joined'), dataIndex: 'joined_at', width: 170, render: (v: string) => clock.dateTime(v) },
          ...(readOnly
            ? []
            : [
                {
                  title: s('col.actions'),
                  key: 'a',
                  width: 90,
                  render: (_: unknown, m: TeachingClassMember) => (
                    <Popconfirm title={s('stu.remove_confirm', { name: m.name })} onConfirm={() => remove(m)}>
                      <Button size="small" danger disabled={del.busy} loading={del.busy && del.input?.student_id === m.id}>
                        {s('stu.remove')}
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]),
        ]}
      />
      {adding && (
        <AddStudents
          cls={cls}
          left={left}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            onChanged();
          }}
        />
      )}
    </>
  );
}

/** Where the students to add come from and go: a teaching class's actions, or a tutoring class's. */
type AddActions =
  { select: 'selectTeachingClassStudent'; add: 'addTeachingClassStudent' } | { select: 'selectTutorialStudent'; add: 'addTutorialStudent' };

/**
 * Choosing students to add (a teaching class by default; a tutoring class with its own actions, plus the plan
 * field given as children and sent through `extra`).
 */
export function AddStudents({
  cls,
  left,
  onClose,
  onAdded,
  actions = { select: 'selectTeachingClassStudent', add: 'addTeachingClassStudent' },
  extra,
  children,
}: {
  cls: { id: number; name: string; capacity: number; students: number };
  left: number;
  onClose: () => void;
  onAdded: () => void;
  actions?: AddActions;
  extra?: () => Promise<Omit<PostInput<'addTutorialStudent'>, 'class_id' | 'student_ids'>>;
  children?: React.ReactNode;
}) {
  const s = teachingStrings.use();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<number[]>([]);
  // a refusal is shown by the request wrapper (capacity and clashes answered with the numbers and names)
  const adding = useAction(actions.add, { success: (_, i) => s('stu.added', { n: i.student_ids.length }), onDone: onAdded });
  const input = { class_id: cls.id, page, limit: 10, ...(name ? { name } : {}) };
  const q = useQuery({
    queryKey: queryKey(actions.select, input),
    queryFn: () => get(actions.select, input),
    placeholderData: keepPreviousData,
  });
  const over = picked.length > left;
  const add = async () => {
    const more = extra ? await extra() : {};
    await adding.run({ class_id: cls.id, student_ids: picked, ...more });
  };
  return (
    <Modal
      open
      width={720}
      title={s('stu.add_title', { name: cls.name })}
      onCancel={onClose}
      okText={s('stu.add_n', { n: picked.length })}
      okButtonProps={{ disabled: picked.length === 0 || over, loading: adding.busy }}
      onOk={() => void add()}
    >
      <Typography.Paragraph type={over ? 'danger' : 'secondary'}>
        {over ? s('stu.over', { n: picked.length, left }) : s('stu.room_left', { capacity: cls.capacity, current: cls.students, left })}
      </Typography.Paragraph>
      {children}
      <Input.Search
        allowClear
        maxLength={32}
        placeholder={s('stu.search')}
        style={{ marginBottom: 12, maxWidth: 260 }}
        onSearch={(v) => {
          setName(v.trim());
          setPage(1);
        }}
      />
      {q.isError ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : (
        <Table<SelectableStudent>
          size="small"
          rowKey="id"
          loading={q.isLoading}
          dataSource={q.data?.list}
          rowSelection={{ selectedRowKeys: picked, preserveSelectedRowKeys: true, onChange: (keys) => setPicked(keys as number[]) }}
          pagination={{ current: page, pageSize: 10, total: q.data?.total, onChange: setPage, showSizeChanger: false }}
          locale={{ emptyText: <EmptyState description={s('stu.none_selectable')} /> }}
          columns={[
            { title: s('stu.name'), dataIndex: 'name' },
            { title: s('stu.grade'), dataIndex: 'grade', render: (v: string | null) => v ?? '-' },
            { title: s('stu.class'), dataIndex: 'class_name', render: (v: string | null) => v ?? '-' },
            { title: s('stu.care'), dataIndex: 'care_class_name', render: (v: string | null) => v ?? '-' },
          ]}
        />
      )}
    </Modal>
  );
}
