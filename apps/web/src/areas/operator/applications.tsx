import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Popconfirm, Segmented, Space, Tag } from 'antd';
import type { AccountApplication } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { usePreferences, useT } from '../../stores/preferences';
import { useSchoolClock } from '../../lib/school-time';
import { operatorStrings } from './strings';
import { queryKey } from '../../api/query';

const STATUS = {
  0: { zh: '待处理', en: 'Pending', color: 'gold' },
  1: { zh: '已通过', en: 'Approved', color: 'green' },
  2: { zh: '已拒绝', en: 'Rejected', color: 'red' },
} as const;

/** Institutions that applied from the sign-in screen; the operator approves or rejects each with a note. */
export default function OperatorApplications() {
  const t = useT();
  const op = operatorStrings.use();
  const clock = useSchoolClock();
  const lang = usePreferences((s) => s.lang);
  const [status, setStatus] = useState<0 | 1 | 2>(0);
  const [page, setPage] = useState(1);
  const [note, setNote] = useState('');
  const q = useQuery({
    queryKey: queryKey('accountApplications', { status, page, limit: 20 }),
    queryFn: () => get('accountApplications', { status, page, limit: 20 }),
  });
  const handleAction = useAction('handleAccountApplication', {
    success: t('common.saved'),
    onDone: async () => {
      setNote('');
      await q.refetch();
    },
  });
  const handle = (a: AccountApplication, next: 1 | 2) =>
    handleAction.run({ id: a.id, version: a.version, status: next, ...(note.trim() ? { note: note.trim() } : {}) });
  const label = (s: 0 | 1 | 2) => (lang === 'en' ? STATUS[s].en : STATUS[s].zh);

  return (
    <Card
      title={op('operator.applications')}
      extra={
        <Segmented
          value={status}
          onChange={(v) => {
            setStatus(v as 0 | 1 | 2);
            setPage(1);
          }}
          options={([0, 1, 2] as const).map((s) => ({ value: s, label: label(s) }))}
        />
      }
    >
      <ServerTable<AccountApplication>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={20}
        scroll={{ x: 900 }}
        columns={[
          { title: t('apply.institution'), dataIndex: 'institution_name' },
          { title: t('apply.contact'), dataIndex: 'contact_name', width: 110 },
          { title: t('apply.mobile'), dataIndex: 'mobile', width: 130 },
          { title: t('apply.city'), dataIndex: 'city', width: 100 },
          { title: t('apply.students'), dataIndex: 'students_estimate', width: 110 },
          { title: t('apply.message'), dataIndex: 'message', ellipsis: true },
          { title: t('settings.when'), dataIndex: 'created_at', width: 170, render: (v: string) => clock.dateTime(v, true) },
          {
            title: '',
            key: 'actions',
            width: 170,
            render: (_, a) =>
              a.status === 0 ? (
                <Space>
                  {([1, 2] as const).map((next) => (
                    <Popconfirm
                      key={next}
                      title={label(next)}
                      description={
                        <Input.TextArea
                          placeholder={t('apply.message')}
                          maxLength={500}
                          rows={2}
                          value={note}
                          onChange={(e) => setNote(e.target.value)}
                        />
                      }
                      onConfirm={() => handle(a, next)}
                    >
                      <Button size="small" danger={next === 2}>
                        {label(next)}
                      </Button>
                    </Popconfirm>
                  ))}
                </Space>
              ) : (
                <Tag color={STATUS[a.status].color}>{label(a.status)}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}
