import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Form, Space } from 'antd';
import type { TeacherStudentRow } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { Loading, LoadError } from '../../components/states';
import { useT } from '../../stores/preferences';
import { CareFields, pickupInput, PickupPeopleFields, type PickupValue, STUDENT_PAGE_SIZE, useMyStudents, useStudentColumns } from './student-common';
import { studentStrings } from './strings';

interface CareValues {
  needs_shuttle: boolean;
  needs_dinner: boolean;
  tutoring_type?: string | null;
  allergies?: string | null;
  pickup_people: PickupValue[];
}

function CareDrawer({ id, onClose, onSaved }: { id: number; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const ss = studentStrings.use();
  // a conflict says to refresh (shown by the request wrapper)
  const setting = useAction('studentSetting', {
    success: t('common.saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  });
  const q = useQuery({ queryKey: queryKey('studentSettingInfo', { id }), queryFn: () => get('studentSettingInfo', { id }) });
  const submit = async (v: CareValues) => {
    if (!q.data) return;
    await setting.run({
      id,
      version: q.data.version,
      needs_shuttle: !!v.needs_shuttle,
      needs_dinner: !!v.needs_dinner,
      tutoring_type: (v.tutoring_type ?? '').trim(),
      allergies: (v.allergies ?? '').trim(),
      pickup_people: pickupInput(v.pickup_people),
    });
  };
  return (
    <Drawer
      open
      onClose={onClose}
      title={q.data ? `${ss('stu.care_settings')}：${q.data.name}` : ''}
      size="large"
      styles={{ wrapper: { maxWidth: '100vw' } }}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !q.data ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : (
        <Form<CareValues> key={q.data.version} layout="vertical" initialValues={q.data} onFinish={submit} autoComplete="off">
          <CareFields healthConsent={q.data.health_consent} />
          <h4>{ss('stu.pickup_people')}</h4>
          <div style={{ color: '#888', marginBottom: 8 }}>{ss('stu.pickup_hint')}</div>
          <PickupPeopleFields />
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={setting.busy}>
              {t('common.save')}
            </Button>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
          </Space>
        </Form>
      )}
    </Drawer>
  );
}

/** /Astudentmanagement: the head teacher's students with their care settings and pick-up people. */
export default function AdviserCare() {
  const ss = studentStrings.use();
  const [open, setOpen] = useState<number | null>(null);
  const col = useStudentColumns();
  const { query: q, page, setPage, search } = useMyStudents();
  return (
    <Card title={ss('stu.care_title')}>
      {search}
      <ServerTable<TeacherStudentRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={STUDENT_PAGE_SIZE}
        scroll={{ x: 820 }}
        columns={[
          col.name,
          col.care,
          col.shuttle,
          col.dinner,
          { title: ss('stu.tutoring_type'), dataIndex: 'tutoring_type', width: 120, render: (v: string | null) => v ?? '-' },
          col.allergies,
          {
            title: ss('stu.actions'),
            key: 'a',
            width: 90,
            render: (_, s) => (
              <Button type="link" size="small" onClick={() => setOpen(s.id)}>
                {ss('stu.edit')}
              </Button>
            ),
          },
        ]}
      />
      {open !== null && <CareDrawer id={open} onClose={() => setOpen(null)} onSaved={() => void q.refetch()} />}
    </Card>
  );
}
