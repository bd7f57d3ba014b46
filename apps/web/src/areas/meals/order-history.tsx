import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DatePicker, Flex, Segmented, Select, Typography } from 'antd';
import { addDays, formatFen, Role, type DinnerBooking } from '@wantuo/shared';
import dayjs from 'dayjs';
import { useState } from 'react';
import { get } from '../../api/http';
import { ServerTable } from '../../components/server-table';
import { EmptyState } from '../../components/states';
import { useSession } from '../../stores/session';
import { useSchoolToday } from '../../lib/school-time';
import { BookingTag } from './common';
import { mealStrings } from './strings';
import { queryKey } from '../../api/query';

const PAGE = 20;
type Option = { value: number; label: string };

/** The students and classes the caller may pick: the admin the school's, a head teacher their own. */
function usePickers(admin: boolean, keyword: string) {
  const students = useQuery({
    queryKey: ['mealsHistoryStudents', admin, keyword],
    queryFn: async (): Promise<Option[]> => {
      const page = await get(admin ? 'studentList' : 'teacherStudentList', { page: 1, limit: 20, keyword: keyword || undefined });
      return page.list.map((s) => ({ value: s.id, label: s.name }));
    },
    placeholderData: keepPreviousData,
  });
  const classes = useQuery({
    queryKey: ['mealsHistoryClasses', admin],
    queryFn: async (): Promise<Option[]> =>
      admin
        ? (await get('classList', { page: 1, limit: 100 })).list.map((c) => ({ value: c.id, label: c.name }))
        : (await get('teacherWantuoInfo')).classes.map((c) => ({ value: c.id, label: c.name })),
  });
  return { students, classes };
}

/**
 * The dinner orders of one student or one class over a date range (dinnerOrderList): the admin's 订餐管理 and the
 * head teacher's 订餐预约 (their own classes' students). The last 30 days and the next 7 by default.
 */
export function OrderHistory() {
  const s = mealStrings.use();
  const user = useSession((x) => x.user);
  const admin = user?.role === Role.Admin;
  const today = useSchoolToday();
  const [by, setBy] = useState<'student' | 'class'>('student');
  const [keyword, setKeyword] = useState('');
  const [studentId, setStudentId] = useState<number | undefined>();
  const [classId, setClassId] = useState<number | undefined>();
  const [range, setRange] = useState({ from: addDays(today, -30), to: addDays(today, 7) });
  const [page, setPage] = useState(1);
  const { students, classes } = usePickers(admin, keyword);
  const target = by === 'student' ? (studentId ? { student_id: studentId } : null) : classId ? { class_id: classId } : null;
  const q = useQuery({
    queryKey: queryKey('dinnerOrderList', { ...target, from: range.from, to: range.to, page, limit: PAGE }),
    queryFn: () => get('dinnerOrderList', { ...target, from: range.from, to: range.to, page, limit: PAGE }),
    enabled: target !== null,
    placeholderData: keepPreviousData,
  });

  return (
    <div data-testid="order-history">
      <Flex wrap gap={8} style={{ marginBottom: 12 }} align="center">
        <Segmented
          value={by}
          onChange={(v) => {
            setBy(v as 'student' | 'class');
            setPage(1);
          }}
          options={[
            { value: 'student', label: s('history.by_student') },
            { value: 'class', label: s('history.by_class') },
          ]}
        />
        {by === 'student' ? (
          <Select
            showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim()) }}
            allowClear
            aria-label={s('history.student')}
            placeholder={s('history.student')}
            style={{ minWidth: 180 }}
            loading={students.isFetching}
            value={studentId}
            onChange={(v) => {
              setStudentId(v);
              setPage(1);
            }}
            options={students.data ?? []}
            notFoundContent={students.isError ? s('history.empty') : undefined}
          />
        ) : (
          <Select
            allowClear
            aria-label={s('history.class')}
            placeholder={s('history.class')}
            style={{ minWidth: 160 }}
            loading={classes.isLoading}
            value={classId}
            onChange={(v) => {
              setClassId(v);
              setPage(1);
            }}
            options={classes.data ?? []}
          />
        )}
        <DatePicker.RangePicker
          aria-label={s('history.range')}
          inputReadOnly
          allowClear={false}
          value={[dayjs(range.from), dayjs(range.to)]}
          onChange={(v) => {
            if (v?.[0] && v[1]) {
              setRange({ from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') });
              setPage(1);
            }
          }}
          style={{ maxWidth: 280 }}
        />
        {target && q.data && <Typography.Text type="secondary">{s('history.total', { n: q.data.total })}</Typography.Text>}
      </Flex>
      {target === null ? (
        <EmptyState description={s('history.pick')} />
      ) : (
        <ServerTable<DinnerBooking>
          query={q}
          page={page}
          onPage={setPage}
          pageSize={PAGE}
          size="small"
          scroll={{ x: 520 }}
          locale={{ emptyText: <EmptyState description={s('history.empty')} /> }}
          columns={[
            { title: s('orders.day'), dataIndex: 'day', width: 104 },
            { title: s('orders.student'), dataIndex: 'student_name', width: 90 },
            { title: s('orders.class'), dataIndex: 'class_name', render: (v: string | null) => v ?? '-' },
            { title: s('orders.goods'), dataIndex: 'goods_name', render: (v: string | null) => v ?? '-' },
            { title: s('goods.price'), dataIndex: 'price_fen', render: (f: number) => (f ? `¥${formatFen(f)}` : '-') },
            { title: s('orders.status'), key: 'status', render: (_: unknown, b) => <BookingTag b={b} /> },
          ]}
        />
      )}
    </div>
  );
}
