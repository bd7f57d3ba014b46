import { useQuery } from '@tanstack/react-query';
import { Input, Modal, Typography } from 'antd';
import type { CareStudent } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { careStrings } from './strings';

const PAGE_SIZE = 10;

/**
 * Picks active students that are in no care class (server-paged, searchable; the choice survives paging) and adds
 * them to the class. `asHead`: the head teacher's actions.
 */
export function AddStudentsModal({
  classId,
  room,
  asHead,
  open,
  onClose,
}: {
  classId: number;
  room: number;
  asHead: boolean;
  open: boolean;
  onClose: (added: boolean) => void;
}) {
  const tc = careStrings.use();
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<number[]>([]);
  const action = asHead ? 'teacherSelectWantuoStudent' : 'selectWantuoStudent';
  const input = { page, limit: PAGE_SIZE, ...(name ? { name } : {}) };
  const q = useQuery({
    queryKey: queryKey(action, input),
    queryFn: () => get(action, input),
    enabled: open,
  });
  const close = (added: boolean) => {
    setChosen([]);
    onClose(added);
  };
  // a refusal (capacity, already in a class) is shown by the request wrapper
  const add = useAction(asHead ? 'teacherAddWantuoStudent' : 'addWantuoStudent', {
    success: (res) => tc('care.added', { count: res.added, headcount: res.headcount, capacity: res.capacity }),
    onDone: () => close(true),
  });
  return (
    <Modal
      open={open}
      title={tc('care.add_students')}
      onCancel={() => close(false)}
      onOk={() => add.run({ class_id: classId, student_ids: chosen })}
      okText={tc('care.add_n', { count: chosen.length })}
      okButtonProps={{ disabled: chosen.length === 0 }}
      confirmLoading={add.busy}
      width={640}
      destroyOnHidden
    >
      <Typography.Paragraph type={chosen.length > room ? 'danger' : 'secondary'}>
        {tc('care.room_left', { room, count: chosen.length })}
      </Typography.Paragraph>
      <Input.Search
        allowClear
        maxLength={50}
        placeholder={tc('care.search_student')}
        style={{ marginBottom: 12 }}
        onSearch={(v) => {
          setName(v.trim());
          setPage(1);
        }}
      />
      <ServerTable<CareStudent>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        pagination={{ size: 'small' }}
        size="small"
        scroll={{ x: 480 }}
        locale={{ emptyText: <EmptyState description={tc('care.no_selectable')} /> }}
        rowSelection={{ selectedRowKeys: chosen, preserveSelectedRowKeys: true, onChange: (keys) => setChosen(keys as number[]) }}
        columns={[
          { title: tc('care.student_name'), dataIndex: 'name', width: 120 },
          { title: tc('care.grade'), key: 'grade', width: 140, render: (_, s) => [s.grade, s.class_name].filter(Boolean).join(' ') || '-' },
          { title: tc('care.day_school'), dataIndex: 'day_school', render: (v: string | null) => v ?? '-' },
        ]}
      />
    </Modal>
  );
}
