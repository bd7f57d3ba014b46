import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Flex, Form, Input, Select, Typography } from 'antd';
import { formatPages, itemSlides, parsePages, planMinutes, type LessonClassKind, type LessonPlanDetail } from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { classKey, useLessonClasses } from './lesson-common';
import { ItemPicker } from './lesson-plan-item-picker';
import { itemKey, PlanItems, type EditItem } from './lesson-plan-items';
import { PlanSteps } from './lesson-plan-steps';
import { lessonStrings } from './lesson-strings';

interface FormValues {
  title: string;
  cls: string;
  lesson_date: Dayjs;
  objectives?: string;
  steps: Array<{ title: string; minutes?: number | null; content?: string }>;
}

/** The editor of a lesson plan: title, class, day, objectives, steps, and the courseware pages it shows in class, in order. */
/** A new plan's class (`<kind>:<id>`) and day (YYYY-MM-DD) when it is made for a session of the timetable. */
export interface PlanPreset {
  cls?: string;
  date?: string;
}

export default function LessonPlanEditor({
  id,
  preset = {},
  onClose,
  onSaved,
}: {
  id: number | null;
  preset?: PlanPreset;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const s = lessonStrings.use();
  const info = useQuery({
    queryKey: queryKey('prepareLessonsInfo', { id }),
    queryFn: () => get('prepareLessonsInfo', { id }),
    enabled: id !== null,
  });
  if (id !== null && info.isLoading) return <Loading />;
  if (id !== null && (info.isError || !info.data))
    return (
      <Card>
        <LoadError message={info.error?.message} onRetry={() => void info.refetch()} />
        <Button onClick={onClose}>{s('back')}</Button>
      </Card>
    );
  return <EditorForm plan={info.data ?? null} preset={preset} onClose={onClose} onSaved={onSaved} />;
}

function EditorForm({
  plan,
  preset,
  onClose,
  onSaved,
}: {
  plan: LessonPlanDetail | null;
  preset: PlanPreset;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const s = lessonStrings.use();
  const today = useSchoolToday();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const classes = useLessonClasses();
  const [form] = Form.useForm<FormValues>();
  // a stale version (someone else saved first) is shown by the request wrapper
  const prepare = useAction('prepareLessons', { success: s('saved') });
  const [picking, setPicking] = useState(false);
  const [items, setItems] = useState<EditItem[]>(() =>
    (plan?.items_list ?? []).map((i) => ({
      key: itemKey(),
      file_id: i.file_id,
      name: i.name,
      kind: i.kind,
      courseware_title: i.courseware_title,
      section_title: i.section_title,
      total_pages: i.total_pages,
      pagesText: formatPages(i.pages),
      note: i.note,
      open: i.open,
      url: i.url,
    })),
  );
  const steps = Form.useWatch('steps', form) ?? plan?.steps ?? [];
  const readOnly = plan !== null && !plan.editable;
  const parsed = items.map((i) => (i.kind === 'pdf' ? parsePages(i.pagesText, i.total_pages) : ({ ok: true, pages: null } as const)));
  const slides = items.reduce((n, it, i) => {
    const p = parsed[i];
    return n + (p.ok ? itemSlides({ kind: it.kind, pages: p.pages, total: it.total_pages }) : 0);
  }, 0);
  // the plan's class stays choosable when it is not in the picker (stopped since, or another teacher's class)
  const classOptions = [
    ...(classes.data ?? []),
    ...(plan && !(classes.data ?? []).some((c) => c.kind === plan.class_kind && c.id === plan.class_id)
      ? [{ kind: plan.class_kind, id: plan.class_id, name: plan.class_name ?? '—' }]
      : []),
  ].map((c) => ({ value: classKey(c), label: `${c.name}（${s(`kind.${c.kind}`)}）` }));

  const change = (key: string, patch: Partial<EditItem>) => setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  const move = (index: number, dir: -1 | 1) =>
    setItems((all) => {
      const next = [...all];
      [next[index], next[index + dir]] = [next[index + dir], next[index]];
      return next;
    });
  const remove = (key: string) => setItems((all) => all.filter((x) => x.key !== key));

  const save = async (teach: boolean) => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    if (parsed.some((p) => !p.ok)) {
      feedback().message.error(s('courseware.plan_pages_invalid'));
      return;
    }
    const [kind, classId] = v.cls.split(':');
    const body = {
      ...(plan ? { id: plan.id, version: plan.version } : {}),
      title: v.title.trim(),
      class_kind: kind as LessonClassKind,
      class_id: Number(classId),
      lesson_date: v.lesson_date.format('YYYY-MM-DD'),
      objectives: v.objectives?.trim() ?? '',
      steps: (v.steps ?? []).map((st) => ({
        title: st.title.trim(),
        minutes: st.minutes ?? null,
        ...(st.content?.trim() ? { content: st.content.trim() } : {}),
      })),
      items: items.map((it, i) => {
        const p = parsed[i];
        return { file_id: it.file_id, pages: p.ok ? p.pages : null, ...(it.note.trim() ? { note: it.note.trim() } : {}) };
      }),
    };
    const saved = await prepare.run(body);
    if (!saved) return;
    await Promise.all([
      qc.invalidateQueries({ queryKey: queryKey('prepareLessonsList') }),
      qc.invalidateQueries({ queryKey: queryKey('prepareLessonsInfo', { id: saved.id }) }),
    ]);
    // the list's address becomes the saved plan's (so "back" from the class returns to it), then the class opens
    onSaved(saved.id);
    if (teach) navigate(`/attendClass?id=${saved.id}`);
  };

  return (
    <Card
      title={plan ? plan.title : s('editor.new')}
      extra={
        <Button size="small" onClick={onClose}>
          {s('back')}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        {readOnly && <Alert type="info" showIcon message={s('editor.read_only', { author: plan.author_name })} />}
        <Form<FormValues>
          form={form}
          layout="vertical"
          disabled={readOnly}
          initialValues={
            plan
              ? {
                  title: plan.title,
                  cls: classKey({ kind: plan.class_kind, id: plan.class_id }),
                  lesson_date: dayjs(plan.lesson_date),
                  objectives: plan.objectives,
                  steps: plan.steps,
                }
              : {
                  cls: preset.cls && /^(care|teaching|tutoring):\d+$/.test(preset.cls) ? preset.cls : undefined,
                  lesson_date:
                    preset.date && /^\d{4}-\d{2}-\d{2}$/.test(preset.date) && dayjs(preset.date).isValid() ? dayjs(preset.date) : dayjs(today),
                  steps: [
                    { title: '导入', minutes: 5 },
                    { title: '新授', minutes: 20 },
                    { title: '练习与小结', minutes: 15 },
                  ],
                }
          }
        >
          <Form.Item name="title" label={s('title')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
            <Input maxLength={60} placeholder={s('title_ph')} />
          </Form.Item>
          <Flex gap={12} wrap>
            <Form.Item
              name="cls"
              label={s('class')}
              rules={[{ required: true, message: s('required') }]}
              style={{ flex: '1 1 200px', minWidth: 0 }}
              extra={classes.data && !classes.data.length ? s('no_classes') : undefined}
            >
              <Select<string> loading={classes.isLoading} options={classOptions} showSearch={{ optionFilterProp: 'label' }} />
            </Form.Item>
            <Form.Item
              name="lesson_date"
              label={s('date')}
              rules={[{ required: true, message: s('required') }]}
              style={{ flex: '1 1 160px', minWidth: 0 }}
            >
              <DatePicker style={{ width: '100%' }} inputReadOnly allowClear={false} />
            </Form.Item>
          </Flex>
          <Form.Item name="objectives" label={s('objectives')}>
            <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 6 }} placeholder={s('objectives_ph')} />
          </Form.Item>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {s('steps')}{' '}
            <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }}>
              {s('minutes_total', { n: planMinutes(steps.filter(Boolean)) })}
            </Typography.Text>
          </Typography.Title>
          <PlanSteps readOnly={readOnly} />
        </Form>

        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {s('items')}{' '}
            <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }} data-testid="plan-slides">
              {s('slides_total', { n: slides })}
            </Typography.Text>
          </Typography.Title>
          {!readOnly && items.length < 40 && (
            <Button onClick={() => setPicking(true)} type="primary" ghost>
              + {s('add_items')}
            </Button>
          )}
        </Flex>
        <Typography.Text type="secondary">{s('items_help')}</Typography.Text>
        <PlanItems items={items} parsed={parsed} readOnly={readOnly} onChange={change} onMove={move} onRemove={remove} />

        <Flex gap={8} wrap justify="flex-end">
          <Button onClick={onClose}>{s('back')}</Button>
          {plan && (
            <Button disabled={plan.slides === 0} onClick={() => navigate(`/attendClass?id=${plan.id}`)}>
              {s('teach')}
            </Button>
          )}
          {!readOnly && (
            <>
              <Button loading={prepare.busy} onClick={() => void save(true)} disabled={slides === 0}>
                {s('save_teach')}
              </Button>
              <Button type="primary" loading={prepare.busy} onClick={() => void save(false)}>
                {s('save')}
              </Button>
            </>
          )}
        </Flex>
      </Flex>
      {picking && (
        <ItemPicker
          chosen={new Set(items.map((i) => i.file_id))}
          onAdd={(f, courseware) =>
            setItems((all) => [
              ...all,
              {
                key: itemKey(),
                file_id: f.id,
                name: f.name,
                kind: f.kind,
                courseware_title: courseware,
                section_title: f.section_title,
                total_pages: f.pages,
                pagesText: '',
                note: '',
                open: true,
                url: f.url,
              },
            ])
          }
          onClose={() => setPicking(false)}
        />
      )}
    </Card>
  );
}
