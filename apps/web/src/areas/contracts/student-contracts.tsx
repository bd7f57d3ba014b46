import { useQuery } from '@tanstack/react-query';
import { Button, Flex } from 'antd';
import { formatFen, type ContractRow, type StudentRow } from '@wantuo/shared';
import { useState } from 'react';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { StateTag, useUnitsText } from './common';
import { ContractDrawer } from './contract-drawer';
import { SignDialog } from './sign-dialog';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 10;

/** The contracts tab of the admin's student page: this student's contracts (studentContractList), details and signing. */
export function StudentContracts({ student }: { student: Pick<StudentRow, 'id' | 'name' | 'guardians'> }) {
  const s = contractStrings.use();
  const unitsText = useUnitsText();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const [signing, setSigning] = useState(false);
  const q = useQuery({
    queryKey: queryKey('studentContractList', { student_id: student.id, page, limit: PAGE }),
    queryFn: () => get('studentContractList', { student_id: student.id, page, limit: PAGE }),
  });
  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setSigning(true)}>
          {s('list.sign')}
        </Button>
      </Flex>
      <ServerTable<ContractRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE}
        size="small"
        scroll={{ x: 760 }}
        pagination={{ hideOnSinglePage: true }}
        locale={{ emptyText: <EmptyState description={s('student.empty')} /> }}
        columns={[
          { title: s('col.no'), dataIndex: 'no', width: 140 },
          { title: s('col.package'), dataIndex: 'package_name', width: 140 },
          { title: s('col.period'), key: 'period', width: 190, render: (_, r) => `${r.start_day} ~ ${r.end_day}` },
          { title: s('col.units'), key: 'units', width: 100, render: (_, r) => unitsText(r) },
          { title: s('col.price'), dataIndex: 'price_fen', width: 90, align: 'right', render: (v: number) => formatFen(v) },
          { title: s('col.state'), key: 'state', width: 90, render: (_, r) => <StateTag state={r.state} /> },
          {
            title: s('col.actions'),
            key: 'actions',
            width: 70,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => setOpen(r.id)}>
                {s('act.view')}
              </Button>
            ),
          },
        ]}
      />
      {signing && <SignDialog student={student} onClose={() => setSigning(false)} onSigned={setOpen} />}
      <ContractDrawer id={open} onClose={() => setOpen(null)} />
    </>
  );
}
