import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Drawer, Input, Popconfirm, Segmented, Space, Tag, Typography } from 'antd';
import { accessOf, CATALOGUE, mayCall, Role, type LeaveRequestRow } from '@wantuo/shared';
import { useState } from 'react';
import { get, post } from '../../api/http';
import { feedback } from '../../api/feedback';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { localDateTime, useSchoolZone } from '../../lib/school-time';
import { flowStrings, type FlowKey } from './strings';

const STATUS_COLOR = ['gold', 'green', 'red', 'default'] as const;
type StatusFilter = 'all' | 0 | 1 | 2 | 3;
const LIMIT = 20;

/**
 * Which actions read the requests for the caller: the admin every request of the school (adminLeaveList/Info), a
 * teacher or head teacher their students' (teacherStudentLeaveList/Info); who may decide comes from the catalogue
 * (auditStudentInfo: the head teacher and the admin; a teacher reads only).
 */
export function leaveActionsOf(role: Role | undefined) {
  const admin = role === Role.Admin;
  return {
    list: admin ? ('adminLeaveList' as const) : ('teacherStudentLeaveList' as const),
    info: admin ? ('adminLeaveInfo' as const) : ('teacherStudentLeaveInfo' as const),
    mayDecide: mayCall(accessOf(CATALOGUE.find((a) => a.action === 'auditStudentInfo')!.who), role),
  };
}

const range = (r: LeaveRequestRow) => (r.start_day === r.end_day ? r.start_day : `${r.start_day} ~ ${r.end_day}`);

/** One request in a drawer, with approve / reject and a note for the parent. */
function LeaveDetail({ id, onClose, onDecided }: { id: number | null; onClose: () => void; onDecided: () => void }) {
  const t = useT();
  const tf = flowStrings.use();
  const tz = useSchoolZone();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const actions = leaveActionsOf(useSession((s) => s.user?.role));
  const q = useQuery({
    queryKey: [actions.info, id],
    queryFn: () => get(actions.info, { id: id! }),
    enabled: id !== null,
  });
  const decide = async (approve: boolean) => {
    if (!q.data) return;
    setBusy(approve ? 'approve' : 'reject');
    try {
      const r = await post('auditStudentInfo', {
        id: q.data.id,
        version: q.data.version,
        approve,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      const failed = r.days.filter((d) => !d.ok);
      if (failed.length)
        feedback().notification.info({
          title: tf('ops.leave_days_failed', { n: failed.length }),
          description: failed.map((d) => `${d.day}：${d.error ?? ''}`).join('\n'),
        });
      else feedback().message.success(tf(approve ? 'ops.leave_approved' : 'ops.leave_rejected'));
      setNote('');
      onDecided();
      await q.refetch();
    } catch {
      // shown by the request wrapper (a conflict answers the server's message); read the current version again
      await q.refetch();
    } finally {
      setBusy(null);
    }
  };
  const r = q.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={tf('ops.leave_detail')}
      size={Math.min(460, typeof window === 'undefined' ? 460 : window.innerWidth)}
    >
      {q.isLoading ? (
        <Loading />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} />
      ) : r ? (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={tf('leave.child')}>
              {r.student_name}
              {r.class_name ? `（${r.class_name}）` : ''}
            </Descriptions.Item>
            <Descriptions.Item label={tf('ops.leave_range')}>
              {range(r)} · {tf('ops.leave_n_days', { n: r.days })}
            </Descriptions.Item>
            <Descriptions.Item label={tf('leave.reason')}>{r.reason}</Descriptions.Item>
            <Descriptions.Item label={tf('ops.leave_by')}>
              {r.requested_by_name} · {localDateTime(r.created_at, tz)}
            </Descriptions.Item>
            <Descriptions.Item label={tf('ops.leave_status')}>
              <Tag color={STATUS_COLOR[r.status]}>{tf(`leave.status_${r.status}` as FlowKey)}</Tag>
            </Descriptions.Item>
            {r.reviewed_at && (
              <Descriptions.Item label={tf('ops.leave_reviewed')}>
                {r.reviewed_by_name ?? '-'} · {localDateTime(r.reviewed_at, tz)}
                {r.review_note && <div>{r.review_note}</div>}
              </Descriptions.Item>
            )}
          </Descriptions>
          {r.status === 0 && actions.mayDecide && (
            <div style={{ marginTop: 16 }}>
              <Input.TextArea
                value={note}
                onChange={(e) => setNote(e.target.value)}
                maxLength={500}
                showCount
                rows={3}
                placeholder={tf('ops.leave_note')}
                aria-label={tf('ops.leave_note')}
              />
              <Space style={{ marginTop: 12, width: '100%' }} orientation="vertical">
                <Button type="primary" size="large" block loading={busy === 'approve'} disabled={busy !== null} onClick={() => void decide(true)}>
                  {tf('ops.approve')}
                </Button>
                <Popconfirm
                  title={tf('ops.reject_confirm')}
                  onConfirm={() => decide(false)}
                  okText={tf('ops.reject')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                >
                  <Button danger size="large" block loading={busy === 'reject'} disabled={busy !== null}>
                    {tf('ops.reject')}
                  </Button>
                </Popconfirm>
              </Space>
            </div>
          )}
        </>
      ) : null}
    </Drawer>
  );
}

/**
 * Leave review: the requests by status, paged, in a drawer each. /ALeaveReview: the head teacher's students, decided
 * there; /principal_leave: every request of the school, decided by the admin; /teacher_leave: a teacher's students, read only.
 */
export default function LeaveReview() {
  const tf = flowStrings.use();
  const actions = leaveActionsOf(useSession((s) => s.user?.role));
  const [status, setStatus] = useState<StatusFilter>(0);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const q = useQuery({
    queryKey: [actions.list, status, page],
    queryFn: () => get(actions.list, { page, limit: LIMIT, ...(status === 'all' ? {} : { status }) }),
  });
  const label = (s: StatusFilter) => (s === 'all' ? tf('flow.state_all') : tf(`leave.status_${s}` as FlowKey));

  return (
    <Card size="small" title={tf(actions.mayDecide ? 'ops.leave_title' : 'ops.leave_list_title')} data-testid="leave-review">
      <div className="flow-filter" style={{ marginBottom: 12 }}>
        <Segmented
          value={status}
          onChange={(v) => {
            setStatus(v as StatusFilter);
            setPage(1);
          }}
          options={(['all', 0, 1, 2, 3] as StatusFilter[]).map((s) => ({ value: s, label: label(s) }))}
        />
      </div>
      {!q.isError && !q.isLoading && !q.data?.list.length ? (
        <EmptyState description={tf('ops.leave_none')} />
      ) : (
        <ServerTable<LeaveRequestRow>
          query={q}
          page={page}
          onPage={setPage}
          pageSize={LIMIT}
          size="small"
          scroll={{ x: 760 }}
          onRow={(r) => ({ onClick: () => setOpen(r.id), style: { cursor: 'pointer' } })}
          columns={[
            { title: tf('leave.child'), dataIndex: 'student_name', width: 110, fixed: 'left' },
            { title: tf('ops.leave_range'), key: 'range', width: 200, render: (_, r) => `${range(r)}（${tf('ops.leave_n_days', { n: r.days })}）` },
            { title: tf('leave.reason'), dataIndex: 'reason', ellipsis: true },
            { title: tf('ops.leave_by'), dataIndex: 'requested_by_name', width: 100 },
            {
              title: tf('ops.leave_status'),
              dataIndex: 'status',
              width: 90,
              render: (s: LeaveRequestRow['status']) => <Tag color={STATUS_COLOR[s]}>{tf(`leave.status_${s}` as FlowKey)}</Tag>,
            },
            {
              title: '',
              key: 'open',
              width: 80,
              render: (_, r) => (
                <Typography.Link onClick={() => setOpen(r.id)}>
                  {r.status === 0 && actions.mayDecide ? tf('ops.review') : tf('ops.leave_detail')}
                </Typography.Link>
              ),
            },
          ]}
        />
      )}
      <LeaveDetail id={open} onClose={() => setOpen(null)} onDecided={() => void q.refetch()} />
    </Card>
  );
}
