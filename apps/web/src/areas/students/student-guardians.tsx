import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, List, Modal, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { STUDENT_MAX_GUARDIANS, type StudentDetail, type StudentGuardian, type StudentGuardianChange } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { localDateTime, useSchoolZone } from '../../lib/school-time';
import { useRules } from './student-common';
import { studentStrings } from './strings';

const LOG_PAGE = 10;

type GuardianValue = { name: string; mobile: string; relation: string; is_primary?: boolean };

const asInput = (g: StudentGuardian, primary: number): GuardianValue => ({
  name: g.name,
  mobile: g.mobile,
  relation: g.relation,
  is_primary: g.user_id === primary,
});

/**
 * The guardians of an existing student (student edit page): add, remove, change a relation, make another one primary.
 * Each change sends the whole list (saveStudentGuardians) on the guardians_version read, apart from the profile form's
 * version, so the form keeps what is typed in it; then the page reloads the student and the history.
 */
export function GuardiansSection({
  student,
  onChanged,
}: {
  student: Pick<StudentDetail, 'id' | 'guardians' | 'guardians_version'>;
  onChanged: () => Promise<unknown>;
}) {
  const s = studentStrings.use();
  const client = useQueryClient();
  // a refusal is shown by the request wrapper (a conflict says to refresh)
  const saving = useAction('saveStudentGuardians', { success: s('g.saved') });
  const busy = saving.busy;
  const [adding, setAdding] = useState(false);
  const [relationOf, setRelationOf] = useState<StudentGuardian | null>(null);
  const guardians = student.guardians;
  const primary = guardians.find((g) => g.is_primary)?.user_id ?? guardians[0]?.user_id ?? 0;

  const save = async (list: GuardianValue[]): Promise<boolean> => {
    const saved = await saving.run({ student_id: student.id, version: student.guardians_version, guardians: list });
    // saved or refused, the guardians and their log are read again
    await Promise.all([onChanged(), client.invalidateQueries({ queryKey: queryKey('studentGuardianLog', { student_id: student.id }) })]);
    return saved !== undefined;
  };
  const current = () => guardians.map((g) => asInput(g, primary));
  const makePrimary = (g: StudentGuardian) => save(guardians.map((x) => asInput(x, g.user_id)));
  const remove = (g: StudentGuardian) => save(current().filter((x) => x.mobile !== g.mobile));

  return (
    <div data-testid="guardians">
      <List
        size="small"
        bordered
        dataSource={guardians}
        locale={{ emptyText: <EmptyState description={s('g.empty')} /> }}
        renderItem={(g) => {
          const lockReason = guardians.length <= 1 ? s('g.last_cannot_remove') : g.user_id === primary ? s('g.primary_cannot_remove') : null;
          return (
            <List.Item
              actions={[
                g.user_id !== primary && (
                  <Button key="p" type="link" size="small" disabled={busy} onClick={() => makePrimary(g)}>
                    {s('g.make_primary')}
                  </Button>
                ),
                <Button key="r" type="link" size="small" disabled={busy} onClick={() => setRelationOf(g)}>
                  {s('g.edit_relation')}
                </Button>,
                lockReason ? (
                  <Tooltip key="d" title={lockReason}>
                    <Button type="link" size="small" danger disabled>
                      {s('g.remove')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Popconfirm key="d" title={s('g.remove_confirm', { name: g.name })} onConfirm={() => remove(g)} okButtonProps={{ danger: true }}>
                    <Button type="link" size="small" danger disabled={busy}>
                      {s('g.remove')}
                    </Button>
                  </Popconfirm>
                ),
              ].filter(Boolean)}
            >
              <Space wrap size={4}>
                <span>{`${g.name}（${g.relation}）`}</span>
                <Typography.Text type="secondary">{g.mobile}</Typography.Text>
                {g.user_id === primary && <Tag color="blue">{s('stu.primary')}</Tag>}
              </Space>
            </List.Item>
          );
        }}
      />
      <div style={{ marginTop: 8 }}>
        {guardians.length < STUDENT_MAX_GUARDIANS ? (
          <Button type="dashed" block disabled={busy} onClick={() => setAdding(true)}>
            {s('g.add')}
          </Button>
        ) : (
          <Typography.Text type="secondary">{s('g.too_many', { n: STUDENT_MAX_GUARDIANS })}</Typography.Text>
        )}
      </div>
      {adding && (
        <AddGuardianDialog
          onCancel={() => setAdding(false)}
          onOk={async (v) => {
            const list = current().map((g) => (v.is_primary ? { ...g, is_primary: false } : g));
            if (await save([...list, { ...v, is_primary: !!v.is_primary }])) setAdding(false);
          }}
          busy={busy}
        />
      )}
      {relationOf && (
        <RelationDialog
          guardian={relationOf}
          busy={busy}
          onCancel={() => setRelationOf(null)}
          onOk={async (relation) => {
            if (await save(current().map((g) => (g.mobile === relationOf.mobile ? { ...g, relation } : g)))) setRelationOf(null);
          }}
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {s('g.history')}
      </Typography.Title>
      <GuardianHistory studentId={student.id} />
    </div>
  );
}

function AddGuardianDialog({ onOk, onCancel, busy }: { onOk: (v: GuardianValue) => void; onCancel: () => void; busy: boolean }) {
  const s = studentStrings.use();
  const rules = useRules();
  const [form] = Form.useForm<GuardianValue>();
  return (
    <Modal open title={s('g.add')} onCancel={onCancel} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{s('g.add_hint')}</Typography.Paragraph>
      <Form<GuardianValue>
        form={form}
        name="guardian_add"
        layout="vertical"
        autoComplete="off"
        onFinish={(v) => onOk({ name: v.name.trim(), mobile: v.mobile.trim(), relation: v.relation.trim(), is_primary: !!v.is_primary })}
      >
        <Form.Item name="name" label={s('g.name')} rules={rules.name}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="mobile" label={s('g.mobile')} rules={rules.mobile}>
          <Input maxLength={11} inputMode="numeric" />
        </Form.Item>
        <Form.Item name="relation" label={s('g.relation')} rules={rules.relation}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="is_primary" valuePropName="checked">
          <Checkbox>{s('g.as_primary')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RelationDialog({
  guardian,
  onOk,
  onCancel,
  busy,
}: {
  guardian: StudentGuardian;
  onOk: (relation: string) => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const s = studentStrings.use();
  const rules = useRules();
  const [form] = Form.useForm<{ relation: string }>();
  return (
    <Modal open title={`${s('g.relation')}：${guardian.name}`} onCancel={onCancel} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden>
      <Form
        form={form}
        name="guardian_relation"
        layout="vertical"
        autoComplete="off"
        initialValues={{ relation: guardian.relation }}
        onFinish={(v) => onOk(v.relation.trim())}
      >
        <Form.Item name="relation" label={s('g.relation')} rules={rules.relation}>
          <Input maxLength={20} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The student's guardian changes, newest first (studentGuardianLog), a server page at a time. */
function GuardianHistory({ studentId }: { studentId: number }) {
  const s = studentStrings.use();
  const timezone = useSchoolZone();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: queryKey('studentGuardianLog', { student_id: studentId, page, limit: LOG_PAGE }),
    queryFn: () => get('studentGuardianLog', { student_id: studentId, page, limit: LOG_PAGE }),
  });
  return (
    <ServerTable<StudentGuardianChange>
      query={q}
      page={page}
      onPage={setPage}
      pageSize={LOG_PAGE}
      size="small"
      scroll={{ x: 600 }}
      pagination={{ hideOnSinglePage: true }}
      locale={{ emptyText: <EmptyState description={s('g.history_empty')} /> }}
      columns={[
        { title: s('g.col.time'), dataIndex: 'created_at', width: 140, render: (v: string) => localDateTime(v, timezone) },
        {
          title: s('g.col.kind'),
          dataIndex: 'kind',
          width: 110,
          render: (k: StudentGuardianChange['kind']) => (
            <Tag color={k === 'removed' ? 'red' : k === 'added' ? 'green' : 'blue'}>{s(`g.kind.${k}`)}</Tag>
          ),
        },
        { title: s('g.col.guardian'), key: 'g', width: 170, render: (_, r) => `${r.guardian_name} ${r.guardian_mobile ?? ''}` },
        {
          title: s('g.col.detail'),
          key: 'rel',
          width: 120,
          render: (_, r) => (r.old_relation ? s('g.relation_from', { from: r.old_relation, to: r.relation }) : r.relation),
        },
        { title: s('g.col.actor'), dataIndex: 'actor_name', width: 90 },
      ]}
    />
  );
}
