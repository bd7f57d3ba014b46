import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Input, Popconfirm, Table, Tabs, Tag, Typography } from 'antd';
import { parseScoreCell, t as sharedT, type ExamScoreAnswer, type ExamScoreRow } from '@wantuo/shared';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { download } from '../../api/download';
import { feedback } from '../../api/feedback';
import { useAction } from '../../api/action';
import { ApiError, get } from '../../api/http';
import { queryKey } from '../../api/query';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { usePreferences } from '../../stores/preferences';
import { useExamApi } from './common';
import { Analysis } from './exam-score-analysis';
import { ImportDialog } from './exam-score-import';
import { examStrings } from './strings';
import './exams.css';

type Check = { kind: 'none' } | { kind: 'ok'; score2: number | null; absent: boolean } | { kind: 'bad'; error: string };

/**
 * /principal_exam_scores?id= (and the teacher's /teacher_exam_scores, /A_exam_scores on the phone): the score grid of
 * one exam. Scores are typed, or a column copied from a spreadsheet is pasted into a cell and fills the rows from
 * there in table order; every cell is checked as it changes (0..full mark, halves, 缺考), and the batch saves all
 * rows or none (the server names each bad row, shown on its line). Ranks, statistics, the distribution chart, the
 * .xlsx export and import, publishing to the guardians.
 */
export default function ExamScores() {
  const s = examStrings.use();
  const api = useExamApi();
  const [params] = useSearchParams();
  const examId = Number(params.get('id'));
  const q = useQuery({
    queryKey: queryKey(api.scores, { exam_id: examId }),
    queryFn: () => get(api.scores, { exam_id: examId }),
    enabled: Number.isInteger(examId) && examId > 0,
  });
  if (!Number.isInteger(examId) || examId <= 0)
    return (
      <Card size="small">
        <EmptyState description={s('sc.choose')}>
          <Link to={api.listPath}>
            <Button type="primary">{s('sc.to_list')}</Button>
          </Link>
        </EmptyState>
      </Card>
    );
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => void q.refetch()} />;
  const a = q.data;
  const e = a.exam;
  return (
    <Flex vertical gap={12} className="exam-scores">
      <Card size="small">
        <Flex justify="space-between" align="start" wrap gap={8}>
          <div style={{ minWidth: 0 }}>
            <Typography.Title level={5} style={{ margin: 0 }} data-testid="exam-title">
              {e.name} {e.published_at ? <Tag color="green">{s('published')}</Tag> : <Tag>{s('unpublished')}</Tag>}
            </Typography.Title>
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              {s('sc.info', { subject: e.subject, day: e.exam_day, full: e.full_mark, pass: e.pass_mark })} ·{' '}
              {e.classes.map((c) => c.name).join('、')}
            </Typography.Text>
          </div>
          <Flex gap={8} wrap>
            <Link to={api.listPath}>
              <Button>{s('sc.back')}</Button>
            </Link>
            {a.can_manage && <Publish answer={a} />}
          </Flex>
        </Flex>
        {!a.can_manage && <Alert style={{ marginTop: 8 }} type="info" showIcon title={s('sc.not_manage')} />}
      </Card>
      <Tabs
        items={[
          { key: 'entry', label: s('sc.tab_entry'), children: <Entry key={`${e.id}-${e.scores_version}`} answer={a} /> },
          { key: 'analysis', label: s('sc.tab_analysis'), children: <Analysis answer={a} query={q} /> },
        ]}
      />
    </Flex>
  );
}

function Publish({ answer }: { answer: ExamScoreAnswer }) {
  const s = examStrings.use();
  const api = useExamApi();
  const e = answer.exam;
  const publish = useAction('publishExamScores', { success: (r) => s('sc.published_n', { n: r.texted }), invalidates: [api.scores, api.list] });
  const go = () => publish.run({ exam_id: e.id, version: e.version });
  return (
    <Popconfirm
      title={s('sc.publish_title', { name: e.name })}
      description={<div style={{ maxWidth: 300 }}>{s('sc.publish_body')}</div>}
      okText={s('sc.publish')}
      cancelText={s('cancel')}
      onConfirm={go}
    >
      <Button type="primary" data-testid="exam-publish">
        {e.published_at ? s('sc.republish') : s('sc.publish')}
      </Button>
    </Popconfirm>
  );
}

/** Whether a student has an entry (a score, or absent). */
const entered = (r: ExamScoreRow) => r.absent || r.score !== null;

/** The cell's text as the grid shows it at first. */
const initialText = (r: ExamScoreRow) => (r.absent ? '缺考' : r.score === null ? '' : String(r.score));

function Entry({ answer }: { answer: ExamScoreAnswer }) {
  const s = examStrings.use();
  const lang = usePreferences((x) => x.lang);
  const api = useExamApi();
  const e = answer.exam;
  const rows = answer.list;
  const [draft, setDraft] = useState<Record<number, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<number, string>>({});
  // the server names each bad row of a refused batch: shown on its line (so not by the request wrapper)
  const saveScores = useAction(api.addScores, {
    silent: true,
    success: (res) => s('sc.saved', { n: res.saved }),
    invalidates: [api.scores, api.list],
    onDone: () => setDraft({}),
    onError: (err) => {
      const data = err instanceof ApiError ? (err.data as { rows?: Array<{ student_id: number | null; message: string }> } | null) : null;
      if (data?.rows?.length) {
        setServerErrors(Object.fromEntries(data.rows.filter((p) => p.student_id !== null).map((p) => [p.student_id!, p.message])));
        feedback().message.error(s('sc.not_saved'));
      } else feedback().message.error(err.message);
    },
  });
  const delScore = useAction(api.delScore, { success: s('sc.deleted'), invalidates: [api.scores] });
  const [importing, setImporting] = useState(false);
  const line = useMemo(() => new Map(rows.map((r, i) => [r.student_id, i + 1])), [rows]);
  const classNames = useMemo(() => new Map(e.classes.map((c) => [c.id, c.name])), [e.classes]);

  const textOf = (r: ExamScoreRow) => draft[r.student_id] ?? initialText(r);
  const checkOf = (r: ExamScoreRow): Check => {
    const text = textOf(r);
    if (text === initialText(r)) return { kind: 'none' };
    const c = parseScoreCell(text, e.full_mark);
    if (c === null) return entered(r) ? { kind: 'bad', error: s('sc.cleared') } : { kind: 'none' };
    if (!c.ok) return { kind: 'bad', error: sharedT(lang, c.error) };
    return { kind: 'ok', score2: c.score2, absent: c.absent };
  };
  const checks = rows.map((r) => ({ r, c: checkOf(r) }));
  const changed = checks.filter((x) => x.c.kind !== 'none');
  const bad = checks.filter((x) => x.c.kind === 'bad');

  const set = (id: number, v: string) => {
    setDraft((d) => ({ ...d, [id]: v }));
    if (serverErrors[id]) setServerErrors(({ [id]: _, ...rest }) => rest);
  };
  /** A pasted column (Excel: lines, cells by tab; the first cell of each line) fills the rows from this one down. */
  const paste = (index: number, text: string) => {
    const values = text
      .replace(/\r/g, '')
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => l.split('\t')[0].trim());
    if (values.length <= 1) return false;
    setDraft((d) => {
      const next = { ...d };
      values.forEach((v, k) => {
        const r = rows[index + k];
        if (r) next[r.student_id] = v;
      });
      return next;
    });
    setServerErrors({});
    return true;
  };

  const save = async () => {
    if (bad.length) return;
    const batch = changed.filter((x) => x.c.kind === 'ok');
    if (!batch.length) {
      feedback().message.info(s('sc.nothing'));
      return;
    }
    await saveScores.run({
      exam_id: e.id,
      scores_version: e.scores_version,
      rows: batch.map(({ r, c }) =>
        c.kind === 'ok' && c.absent
          ? { student_id: r.student_id, absent: true }
          : { student_id: r.student_id, score: c.kind === 'ok' ? c.score2! / 2 : null },
      ),
    });
  };

  const remove = (r: ExamScoreRow) => delScore.run({ exam_id: e.id, student_id: r.student_id });

  const problems = [
    ...bad.map(({ r, c }) => ({
      id: r.student_id,
      text: s('sc.row_error', { row: line.get(r.student_id)!, name: r.student_name, msg: c.kind === 'bad' ? c.error : '' }),
    })),
    ...Object.entries(serverErrors).map(([id, msg]) => ({
      id: Number(id),
      text: s('sc.row_error', { row: line.get(Number(id)) ?? '?', name: rows.find((r) => r.student_id === Number(id))?.student_name ?? id, msg }),
    })),
  ];

  if (!rows.length)
    return (
      <Card size="small">
        <EmptyState description={s('sc.empty')} />
      </Card>
    );
  return (
    <Flex vertical gap={12}>
      <Alert type="info" showIcon title={s('sc.paste_hint')} />
      {problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="score-problems"
          title={serverErrors && Object.keys(serverErrors).length ? s('sc.not_saved') : s('sc.problems', { n: problems.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {problems.map((p) => (
                <li key={p.id}>{p.text}</li>
              ))}
            </ul>
          }
        />
      )}
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <Table<ExamScoreRow>
          rowKey="student_id"
          size="small"
          pagination={false}
          dataSource={rows}
          sticky
          rowClassName={(r) => (bad.some((x) => x.r.student_id === r.student_id) || serverErrors[r.student_id] ? 'exam-row-bad' : '')}
          columns={[
            { title: s('sc.col_no'), key: 'no', width: 48, render: (_, __, i) => i + 1 },
            { title: s('sc.col_student'), dataIndex: 'student_name', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
            { title: s('sc.col_class'), key: 'class', responsive: ['md'], render: (_, r) => (r.class_id === null ? '' : classNames.get(r.class_id)) },
            {
              title: s('sc.col_score'),
              key: 'score',
              width: 130,
              render: (_, r, i) => {
                const c = checkOf(r);
                const wrong = c.kind === 'bad' || Boolean(serverErrors[r.student_id]);
                return (
                  <Input
                    value={textOf(r)}
                    status={wrong ? 'error' : undefined}
                    inputMode="decimal"
                    aria-label={`${r.student_name} ${s('sc.col_score')}`}
                    data-testid={`score-${i + 1}`}
                    className={c.kind === 'ok' ? 'exam-cell-changed' : undefined}
                    onChange={(ev) => set(r.student_id, ev.target.value)}
                    onPaste={(ev) => {
                      if (paste(i, ev.clipboardData.getData('text'))) ev.preventDefault();
                    }}
                    style={{ maxWidth: 110 }}
                  />
                );
              },
            },
            { title: s('sc.col_class_rank'), dataIndex: 'class_rank', width: 64, render: (v: number | null) => v ?? '-' },
            { title: s('sc.col_school_rank'), dataIndex: 'school_rank', width: 64, responsive: ['md'], render: (v: number | null) => v ?? '-' },
            {
              title: '',
              key: 'del',
              width: 48,
              responsive: ['sm'],
              render: (_, r) =>
                entered(r) && (
                  <Popconfirm
                    title={s('sc.delete_title', { name: r.student_name })}
                    okText={s('sc.delete')}
                    cancelText={s('cancel')}
                    onConfirm={() => remove(r)}
                  >
                    <Button size="small" type="link" danger>
                      {s('act.delete')}
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      </Card>
      <div className="exam-bar">
        <Flex gap={8} align="center" wrap>
          <Typography.Text type={bad.length ? 'danger' : 'secondary'} style={{ flex: 1, minWidth: 120 }}>
            {bad.length ? s('sc.problems', { n: bad.length }) : s('sc.changed', { n: changed.length })}
          </Typography.Text>
          <Button
            className="exam-bar-io"
            title={s('sc.export')}
            icon={<DownloadOutlined />}
            onClick={() =>
              void download('examScoreExport', { exam_id: e.id }, `成绩-${e.name}.xlsx`).catch((err: Error) => feedback().message.error(err.message))
            }
          >
            {s('sc.export')}
          </Button>
          <Button className="exam-bar-io" title={s('sc.import')} icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            {s('sc.import')}
          </Button>
          {changed.length > 0 && (
            <Button
              onClick={() => {
                setDraft({});
                setServerErrors({});
              }}
            >
              {s('sc.reset')}
            </Button>
          )}
          <Button
            type="primary"
            loading={saveScores.busy}
            disabled={bad.length > 0 || changed.length === 0}
            onClick={() => void save()}
            data-testid="scores-save"
            style={{ minHeight: 40 }}
          >
            {s('sc.save')}
          </Button>
        </Flex>
      </div>
      {importing && <ImportDialog examId={e.id} onClose={() => setImporting(false)} />}
    </Flex>
  );
}
