import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Grid, Input, Popconfirm, Select, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { LessonPlanRow } from '@wantuo/shared';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState, Loading } from '../../components/states';
import { useSession } from '../../stores/session';
import { classKey, useLessonClasses } from './lesson-common';
import { lessonStrings } from './lesson-strings';

const Editor = lazy(() => import('./lesson-plan-editor'));
const PAGE = 20;

/**
 * Lesson preparation (/sparePart for the admin, /teacher_lessons and /A_lessons for teachers and head teachers): the
 * lesson plans, paged on the server, by class, days, title and author; `?plan=new` or `?plan=<id>` opens the editor.
 * From a plan: teach it in /attendClass, edit it (its author or the admin), remove it.
 */
export default function LessonPlans() {
  const [params, setParams] = useSearchParams();
  const planParam = params.get('plan');
  if (planParam !== null) {
    const id = planParam === 'new' ? null : Number(planParam) || null;
    // a new plan may come with its class and day (from a session of the timetable): ?class=<kind>:<id>&date=YYYY-MM-DD
    const preset = id === null ? { cls: params.get('class') ?? undefined, date: params.get('date') ?? undefined } : {};
    const close = () =>
      setParams((p) => {
        for (const k of ['plan', 'class', 'date']) p.delete(k);
        return p;
      });
    const saved = (planId: number) =>
      setParams(
        (p) => {
          p.delete('class');
          p.delete('date');
          p.set('plan', String(planId));
          return p;
        },
        { replace: true },
      );
    return (
      <Suspense fallback={<Loading />}>
        <Editor key={planParam} id={id} preset={preset} onClose={close} onSaved={saved} />
      </Suspense>
    );
  }
  return <PlanList onOpen={(id) => setParams((p) => (p.set('plan', String(id)), p))} />;
}

function PlanList({ onOpen }: { onOpen: (id: number | 'new') => void }) {
  const s = lessonStrings.use();
  const navigate = useNavigate();
  const userId = useSession((st) => st.user?.id);
  const classes = useLessonClasses();
  const phone = !Grid.useBreakpoint().sm;
  const [keyword, setKeyword] = useState('');
  const [cls, setCls] = useState<string | undefined>();
  const [days, setDays] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [mine, setMine] = useState(false);
  const [page, setPage] = useState(1);
  const [kind, id] = cls ? cls.split(':') : [];
  const params = {
    page,
    limit: PAGE,
    keyword: keyword || undefined,
    class_kind: kind,
    class_id: id ? Number(id) : undefined,
    from: days?.[0]?.format('YYYY-MM-DD'),
    to: days?.[1]?.format('YYYY-MM-DD'),
    mine: mine ? 1 : undefined,
  };
  const list = useQuery({
    queryKey: queryKey('prepareLessonsList', params),
    queryFn: () => get('prepareLessonsList', params),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(keyword || cls || days || mine);
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setPage(1);
      set(v);
    };
  const del = useAction('delPrepareLessons', { success: s('removed'), invalidates: ['prepareLessonsList'] });
  const remove = (row: LessonPlanRow) => del.run({ id: row.id, version: row.version });
  const actions = (r: LessonPlanRow) => (
    <Space size={4} wrap>
      <Button size="small" type="primary" disabled={r.slides === 0} onClick={() => navigate(`/attendClass?id=${r.id}`)}>
        {s('teach')}
      </Button>
      <Button size="small" onClick={() => onOpen(r.id)}>
        {r.editable ? s('edit') : s('view')}
      </Button>
      {r.editable && (
        <Popconfirm title={s('remove_confirm', { title: r.title })} okText={s('remove')} cancelText={s('cancel')} onConfirm={() => remove(r)}>
          <Button size="small" danger>
            {s('remove')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
  const titleLink = (r: LessonPlanRow) => (
    <Typography.Link onClick={() => onOpen(r.id)} data-testid="plan-title">
      {r.title}
    </Typography.Link>
  );
  const columns: ColumnsType<LessonPlanRow> = [
    { title: s('col.date'), dataIndex: 'lesson_date', width: 110 },
    { title: s('col.title'), dataIndex: 'title', render: (_, r) => titleLink(r) },
    {
      title: s('col.class'),
      key: 'class',
      width: 170,
      render: (_, r) => (
        <Space size={4} wrap>
          <span>{r.class_name ?? '—'}</span>
          <Tag style={{ marginInlineEnd: 0 }}>{s(`kind.${r.class_kind}`)}</Tag>
        </Space>
      ),
    },
    {
      title: s('col.author'),
      dataIndex: 'author_name',
      width: 100,
      render: (v: string, r) => (r.author_id === userId ? <Typography.Text strong>{v}</Typography.Text> : v),
    },
    { title: s('col.slides'), dataIndex: 'slides', width: 90, render: (n: number) => s('slides_n', { n }) },
    { title: s('col.actions'), key: 'actions', width: 190, render: (_, r) => actions(r) },
  ];
  // a phone: one column, the plan's day, class, author and pages under its title, the actions below
  const phoneColumns: ColumnsType<LessonPlanRow> = [
    {
      title: s('col.title'),
      key: 'plan',
      render: (_, r) => (
        <Flex vertical gap={6}>
          {titleLink(r)}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.lesson_date} · {r.class_name ?? '—'} · {r.author_name} · {s('slides_n', { n: r.slides })}
          </Typography.Text>
          {actions(r)}
        </Flex>
      ),
    },
  ];
  return (
    <Card>
      <Flex vertical gap={16}>
        <Flex wrap gap={8} justify="space-between">
          <Flex wrap gap={8} style={{ minWidth: 0 }}>
            <Input.Search
              allowClear
              placeholder={s('keyword')}
              style={{ width: 200, maxWidth: '100%' }}
              onSearch={(v) => reset(setKeyword)(v.trim())}
            />
            <Select<string>
              allowClear
              aria-label={s('class')}
              placeholder={s('all_classes')}
              loading={classes.isLoading}
              value={cls}
              onChange={reset(setCls)}
              style={{ width: 180, maxWidth: '100%' }}
              options={(classes.data ?? []).map((c) => ({ value: classKey(c), label: `${c.name}（${s(`kind.${c.kind}`)}）` }))}
            />
            <DatePicker.RangePicker
              aria-label={s('days')}
              value={days}
              onChange={(v) => reset(setDays)(v as [Dayjs | null, Dayjs | null] | null)}
              inputReadOnly
              style={{ width: 250, maxWidth: '100%' }}
            />
            <Space size={6}>
              <Switch size="small" checked={mine} onChange={reset(setMine)} aria-label={s('mine')} />
              <span>{s('mine')}</span>
            </Space>
          </Flex>
          <Button type="primary" onClick={() => onOpen('new')}>
            {s('new')}
          </Button>
        </Flex>
        <ServerTable<LessonPlanRow>
          query={list}
          page={page}
          onPage={setPage}
          pageSize={PAGE}
          scroll={phone ? undefined : { x: 760 }}
          locale={{
            emptyText: filtered ? (
              <EmptyState description={s('empty_filtered')} />
            ) : (
              <EmptyState description={s('empty')}>
                <Button type="primary" onClick={() => onOpen('new')}>
                  {s('new')}
                </Button>
              </EmptyState>
            ),
          }}
          columns={phone ? phoneColumns : columns}
        />
      </Flex>
    </Card>
  );
}
