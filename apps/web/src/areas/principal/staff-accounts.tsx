import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Popconfirm, Segmented, Select, Space, Tag, Typography } from 'antd';
import { PASSWORD_RE, type StaffRow } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useT } from '../../stores/preferences';
import { useSchoolClock } from '../../lib/school-time';
import { dutyKey, roleKey, StaffFields, toInput, type StaffFormValues } from './staff-fields';
import { staffStrings } from './strings';

const PAGE_SIZE = 20;
const ROLE_COLOR: Record<number, string> = { 1: 'gold', 2: 'blue', 5: 'purple' };
type JobFilter = 'all' | 1 | 2;

/** Staff accounts of the school: search, filter, add, edit, left-job / on-job, reset password, delete. */
export default function StaffAccounts() {
  const t = useT();
  const sf = staffStrings.use();
  const clock = useSchoolClock();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [role, setRole] = useState<number | undefined>();
  const [job, setJob] = useState<JobFilter>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<StaffRow | null>(null);
  const [resetting, setResetting] = useState<StaffRow | null>(null);
  const [generated, setGenerated] = useState<{ name: string; password: string } | null>(null);
  const [editForm] = Form.useForm<StaffFormValues>();
  const [resetForm] = Form.useForm<{ password?: string }>();

  const input = {
    page,
    limit: PAGE_SIZE,
    ...(keyword ? { keyword } : {}),
    ...(role ? { role } : {}),
    ...(job === 'all' ? {} : { job_status: job }),
  };
  const q = useQuery({
    queryKey: queryKey('accountList', input),
    queryFn: () => get('accountList', input),
  });

  // each write: the wrapper shows a refusal (a stale version shows the server's conflict message); the list is read again
  const refetch = () => void q.refetch();
  const saved = { success: t('common.saved'), onError: refetch };
  const editTeacher = useAction('editTeacher', {
    ...saved,
    onDone: () => {
      setEditing(null);
      refetch();
    },
  });
  const resetPwd = useAction('resetTeacherPwd', {
    ...saved,
    onDone: (res) => {
      if (res.password && resetting) setGenerated({ name: resetting.name, password: res.password });
      setResetting(null);
      resetForm.resetFields();
      refetch();
    },
  });
  const setLeave = useAction('setLeave', { ...saved, onDone: refetch });
  const onJob = useAction('onJob', { ...saved, onDone: refetch });
  const delTeacher = useAction('delTeacher', { success: sf('staff.deleted'), onError: refetch, onDone: refetch });
  const rowBusy = setLeave.busy || onJob.busy || delTeacher.busy;

  const openEdit = (row: StaffRow) => {
    setEditing(row);
    editForm.setFieldsValue({
      name: row.name,
      mobile: row.mobile ?? '',
      role: row.role as 2 | 5,
      duties: row.duties,
      gender: row.gender,
      nickname: row.nickname,
      email: row.email ?? '',
      remark: row.remark ?? '',
    });
  };
  const saveEdit = (v: StaffFormValues) => editing && editTeacher.run({ id: editing.id, version: editing.version, ...toInput(v, true) });
  const saveReset = ({ password }: { password?: string }) =>
    resetting && resetPwd.run({ id: resetting.id, version: resetting.version, ...(password ? { password } : {}) });

  const filtered = Boolean(keyword || role || job !== 'all');

  return (
    <Card
      title={sf('staff.accounts')}
      extra={
        <Button type="primary" onClick={() => navigate('/principal_educationalsTeacher_add')}>
          {sf('staff.add')}
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={sf('staff.search')}
          maxLength={64}
          style={{ width: 260, maxWidth: '100%' }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
        />
        <Select
          style={{ width: 130 }}
          value={role ?? 0}
          onChange={(v) => {
            setRole(v || undefined);
            setPage(1);
          }}
          options={[{ value: 0, label: sf('staff.all_roles') }, ...[1, 2, 5].map((r) => ({ value: r, label: sf(roleKey(r)) }))]}
        />
        <Segmented<JobFilter>
          value={job}
          onChange={(v) => {
            setJob(v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: sf('staff.all_status') },
            { value: 1, label: sf('staff.on_job') },
            { value: 2, label: sf('staff.left') },
          ]}
        />
      </Space>
      <ServerTable<StaffRow>
        query={q}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        scroll={{ x: 1100 }}
        locale={{ emptyText: <EmptyState description={filtered ? sf('staff.empty_search') : sf('staff.empty')} /> }}
        columns={[
          {
            title: sf('staff.name'),
            key: 'name',
            fixed: 'left',
            width: 150,
            render: (_, r) => (
              <div>
                <div>{r.name}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.username}
                </Typography.Text>
              </div>
            ),
          },
          { title: sf('staff.role'), dataIndex: 'role', width: 100, render: (v: number) => <Tag color={ROLE_COLOR[v]}>{sf(roleKey(v))}</Tag> },
          { title: sf('staff.mobile'), dataIndex: 'mobile', width: 130 },
          {
            title: sf('staff.duties'),
            dataIndex: 'duties',
            width: 200,
            render: (v: StaffRow['duties']) => (v.length ? v.map((d) => <Tag key={d}>{sf(dutyKey(d))}</Tag>) : '-'),
          },
          {
            title: sf('staff.job_status'),
            dataIndex: 'job_status',
            width: 150,
            render: (v: number, r) =>
              v === 1 ? (
                <Tag color="green">{sf('staff.on_job')}</Tag>
              ) : (
                <Space orientation="vertical" size={0}>
                  <Tag color="default">{sf('staff.left')}</Tag>
                  {r.left_at && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {sf('staff.left_at', { date: clock.day(r.left_at) })}
                    </Typography.Text>
                  )}
                </Space>
              ),
          },
          {
            title: sf('staff.last_login'),
            dataIndex: 'last_login_at',
            width: 170,
            render: (v: string | null) => (v ? clock.dateTime(v, true) : <Typography.Text type="secondary">{sf('staff.never')}</Typography.Text>),
          },
          {
            title: sf('staff.actions'),
            key: 'actions',
            width: 300,
            render: (_, r) =>
              r.role === 1 ? (
                <Typography.Text type="secondary">{sf('staff.admin_row')}</Typography.Text>
              ) : (
                <Space wrap size={[4, 4]}>
                  <Button size="small" onClick={() => openEdit(r)}>
                    {sf('staff.edit')}
                  </Button>
                  {r.job_status === 1 ? (
                    <Popconfirm
                      title={sf('staff.set_leave')}
                      description={<div style={{ maxWidth: 260 }}>{sf('staff.set_leave_confirm', { name: r.name })}</div>}
                      onConfirm={() => setLeave.run({ id: r.id, version: r.version })}
                    >
                      <Button size="small" disabled={rowBusy} loading={setLeave.busy && setLeave.input?.id === r.id}>
                        {sf('staff.set_leave')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Popconfirm
                      title={sf('staff.set_on_job')}
                      description={sf('staff.set_on_job_confirm', { name: r.name })}
                      onConfirm={() => onJob.run({ id: r.id, version: r.version })}
                    >
                      <Button size="small" disabled={rowBusy} loading={onJob.busy && onJob.input?.id === r.id}>
                        {sf('staff.set_on_job')}
                      </Button>
                    </Popconfirm>
                  )}
                  <Button size="small" onClick={() => setResetting(r)}>
                    {sf('staff.reset_pwd')}
                  </Button>
                  <Popconfirm
                    title={sf('staff.delete')}
                    description={<div style={{ maxWidth: 260 }}>{sf('staff.delete_confirm', { name: r.name })}</div>}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => delTeacher.run({ id: r.id, version: r.version })}
                  >
                    <Button size="small" danger disabled={rowBusy} loading={delTeacher.busy && delTeacher.input?.id === r.id}>
                      {sf('staff.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />

      <Modal
        title={sf('staff.edit_title')}
        open={editing !== null}
        onCancel={() => setEditing(null)}
        onOk={() => editForm.submit()}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={editTeacher.busy}
        forceRender
      >
        <Form<StaffFormValues> form={editForm} layout="vertical" onFinish={saveEdit} autoComplete="off">
          <StaffFields />
        </Form>
      </Modal>

      <Modal
        title={resetting ? sf('staff.reset_pwd_title', { name: resetting.name }) : ''}
        open={resetting !== null}
        onCancel={() => {
          setResetting(null);
          resetForm.resetFields();
        }}
        onOk={() => resetForm.submit()}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={resetPwd.busy}
        forceRender
      >
        <Typography.Paragraph type="secondary">{sf('staff.reset_pwd_hint')}</Typography.Paragraph>
        <Form form={resetForm} layout="vertical" onFinish={saveReset} autoComplete="off">
          <Form.Item name="password" label={sf('staff.new_password')} rules={[{ pattern: PASSWORD_RE, message: sf('staff.password_rule') }]}>
            <Input.Password maxLength={64} autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        title={sf('staff.generated_title')}
        open={generated !== null}
        onOk={() => setGenerated(null)}
        onCancel={() => setGenerated(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
        okText={t('common.ok')}
      >
        {generated && (
          <>
            <Typography.Paragraph>{sf('staff.generated_lead', { name: generated.name })}</Typography.Paragraph>
            <Typography.Paragraph copyable code style={{ fontSize: 18 }}>
              {generated.password}
            </Typography.Paragraph>
          </>
        )}
      </Modal>
    </Card>
  );
}
