import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Form, Input, Modal, Space, Tag } from 'antd';
import { formatFen, type CareClassInfo, type CareClassStudent, type Duty, type DutyAssignment } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useT } from '../../stores/preferences';
import { AddStudentsModal } from './add-students';
import { classSlot, DUTY_KEYS, DutyTags, TeacherSelect, useSlotText } from './care-common';
import { RemoveStudentButton } from './remove-student';
import { careStrings } from './strings';
import { OwnSlotTags, StudentSlotsButton } from './student-slots';

const PAGE_SIZE = 20;
type ClassDuty = Exclude<Duty, 'head'>;

/** allotTeacher: assigns the teacher, or removes the assignment when cleared; always refreshes. */
function useAllot(classId: number, refresh: () => void) {
  const t = useT();
  const allot = useAction('allotTeacher', { success: t('common.saved'), onDone: refresh, onError: refresh });
  return (duty: Duty, teacherId: number | null, studentId: number | null = null) =>
    allot.run({
      class_id: classId,
      duty,
      ...(studentId ? { student_id: studentId } : {}),
      ...(teacherId ? { teacher_id: teacherId } : { remove: true }),
    });
}

function StudentDutyModal({ classId, student, onClose }: { classId: number; student: CareClassStudent | null; onClose: () => void }) {
  const cs = careStrings.use();
  const allot = useAllot(classId, () => undefined);
  const [form] = Form.useForm<Record<ClassDuty, number | null>>();
  const of = (duty: ClassDuty) => student?.duties.find((d) => d.duty === duty);
  const save = async (v: Record<ClassDuty, number | null>) => {
    if (!student) return;
    for (const duty of ['shuttle', 'tutor'] as const) {
      const before = of(duty)?.teacher_id ?? null;
      const after = v[duty] ?? null;
      if (before !== after) await allot(duty, after, student.id);
    }
    onClose();
  };
  return (
    <Modal
      open={student !== null}
      title={cs('care.student_duties', { name: student?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {student && (
        <Form
          form={form}
          layout="vertical"
          onFinish={save}
          initialValues={{ shuttle: of('shuttle')?.teacher_id ?? null, tutor: of('tutor')?.teacher_id ?? null }}
        >
          {(['shuttle', 'tutor'] as const).map((duty) => {
            const d = of(duty);
            return (
              <Form.Item key={duty} name={duty} label={cs(DUTY_KEYS[duty])}>
                <TeacherSelect duty={duty} allowClear current={d ? { id: d.teacher_id, name: d.teacher_name } : null} />
              </Form.Item>
            );
          })}
        </Form>
      )}
    </Modal>
  );
}

function ClassHeader({ info, refresh }: { info: CareClassInfo; refresh: () => void }) {
  const cs = careStrings.use();
  const slotText = useSlotText();
  const allot = useAllot(info.id, refresh);
  const duty = (d: ClassDuty): DutyAssignment | undefined => info.duties.find((x) => x.duty === d);
  return (
    <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }} style={{ marginBottom: 16 }}>
      <Descriptions.Item label={cs('care.class_name')}>
        {info.name} {info.status === 1 ? <Tag color="green">{cs('care.running')}</Tag> : <Tag>{cs('care.stopped')}</Tag>}
      </Descriptions.Item>
      <Descriptions.Item label={cs('care.head_teacher')}>{info.head_teacher_name ?? '-'}</Descriptions.Item>
      <Descriptions.Item label={cs('care.slot')}>
        {info.class_time_id ? `${info.class_time_name}（${slotText(classSlot(info))}）` : '-'}
      </Descriptions.Item>
      <Descriptions.Item label={cs('care.headcount')}>{`${info.headcount} / ${info.capacity}`}</Descriptions.Item>
      <Descriptions.Item label={cs('care.fee')}>¥{formatFen(info.fee_fen)}</Descriptions.Item>
      {(['shuttle', 'tutor'] as const).map((d) => {
        const a = duty(d);
        return (
          <Descriptions.Item key={d} label={cs(d === 'shuttle' ? 'care.class_shuttle' : 'care.class_tutor')}>
            <TeacherSelect
              duty={d}
              allowClear
              value={a?.teacher_id ?? null}
              current={a ? { id: a.teacher_id, name: a.teacher_name } : null}
              onChange={(v) => void allot(d, v)}
              style={{ width: 180, maxWidth: '100%' }}
            />
          </Descriptions.Item>
        );
      })}
    </Descriptions>
  );
}

/** /principal_classCompile?id=: a class's students (add, remove with preview) and its duty teachers. */
export default function ClassStudents() {
  const t = useT();
  const cs = careStrings.use();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [dutyOf, setDutyOf] = useState<CareClassStudent | null>(null);
  const info = useQuery({ queryKey: queryKey('wantuoInfo', { id }), queryFn: () => get('wantuoInfo', { id }), enabled: valid });
  const studentsInput = { id, page, limit: PAGE_SIZE, ...(name ? { name } : {}) };
  const students = useQuery({
    queryKey: queryKey('wantuoStudent', studentsInput),
    queryFn: () => get('wantuoStudent', studentsInput),
    enabled: valid,
  });
  const refresh = () => {
    void info.refetch();
    void students.refetch();
  };

  if (!valid)
    return (
      <Card>
        <EmptyState description={cs('care.no_class_chosen')}>
          <Button onClick={() => navigate('/principal_class')}>{cs('care.classes')}</Button>
        </EmptyState>
      </Card>
    );
  if (info.isLoading) return <Loading />;
  if (info.isError || !info.data)
    return (
      <Card>
        <LoadError onRetry={() => info.refetch()} />
      </Card>
    );
  const c = info.data;

  return (
    <Card
      title={cs('care.class_students_title', { name: c.name })}
      extra={<Button onClick={() => navigate('/principal_class')}>{t('common.back')}</Button>}
    >
      <ClassHeader info={c} refresh={refresh} />
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          maxLength={50}
          placeholder={cs('care.search_student')}
          style={{ width: 220, maxWidth: '100%' }}
          onSearch={(v) => {
            setName(v.trim());
            setPage(1);
          }}
        />
        <Button type="primary" disabled={c.headcount >= c.capacity} onClick={() => setAdding(true)}>
          {c.headcount >= c.capacity ? cs('care.full') : cs('care.add_students')}
        </Button>
      </Space>
      <ServerTable<CareClassStudent>
        query={students}
        page={page}
        onPage={setPage}
        pageSize={PAGE_SIZE}
        scroll={{ x: 1040 }}
        locale={{ emptyText: <EmptyState description={name ? cs('care.empty_search') : cs('care.empty_students')} /> }}
        columns={[
          { title: cs('care.student_name'), dataIndex: 'name', fixed: 'left', width: 110 },
          { title: cs('care.grade'), key: 'grade', width: 140, render: (_, s) => [s.grade, s.class_name].filter(Boolean).join(' ') || '-' },
          { title: cs('care.student_duty_col'), dataIndex: 'duties', width: 260, render: (d: DutyAssignment[]) => <DutyTags duties={d} /> },
          {
            title: cs('own_slots.col'),
            dataIndex: 'class_times',
            width: 160,
            render: (v: CareClassStudent['class_times'] | undefined) => <OwnSlotTags slots={v ?? []} />,
          },
          {
            title: cs('care.actions'),
            key: 'actions',
            width: 260,
            render: (_, s) => (
              <Space size={4}>
                <Button size="small" onClick={() => setDutyOf(s)}>
                  {cs('care.assign_teacher')}
                </Button>
                <StudentSlotsButton student={s} onDone={refresh} />
                <RemoveStudentButton classId={c.id} student={s} asHead={false} onDone={refresh} />
              </Space>
            ),
          },
        ]}
      />
      <AddStudentsModal
        classId={c.id}
        room={c.capacity - c.headcount}
        asHead={false}
        open={adding}
        onClose={(added) => {
          setAdding(false);
          if (added) refresh();
        }}
      />
      <StudentDutyModal
        classId={c.id}
        student={dutyOf}
        onClose={() => {
          setDutyOf(null);
          refresh();
        }}
      />
    </Card>
  );
}
