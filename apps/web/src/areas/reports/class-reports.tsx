import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Drawer, Flex, Input, List, Select, Space, Tag, Typography } from 'antd';
import { COMMENT_CATEGORIES, COMMENT_TEXT_MAX, commentSaysSomething, presetsOf, type ClassReportStatus } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { get, post } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolToday } from '../../lib/school-time';
import { usePreferences } from '../../stores/preferences';
import { reportsStrings } from './strings';

type Row = ClassReportStatus['list'][number];

/**
 * /teacher_comments (teachers: the classes they have a duty in) and /A_reports (head teachers: their classes): today's
 * children with whose daily report went out and who lacks a comment, and the quick-comment picker per child.
 */
export default function ClassReports() {
  const s = reportsStrings.use();
  const today = useSchoolToday();
  const [classId, setClassId] = useState<number | undefined>();
  const [writing, setWriting] = useState<Row | null>(null);
  const q = useQuery({
    queryKey: ['classReportStatus', classId ?? null, today],
    queryFn: () => get('classReportStatus', { ...(classId ? { class_id: classId } : {}), day: today }),
  });
  const d = q.data;
  return (
    <Flex vertical gap={12} style={{ maxWidth: 720, margin: '0 auto', width: '100%' }}>
      {q.isLoading ? (
        <Loading />
      ) : q.isError || !d ? (
        <LoadError onRetry={() => void q.refetch()} />
      ) : d.classes.length === 0 ? (
        <Card>
          <EmptyState description={s('no_class')} />
        </Card>
      ) : (
        <>
          <Select
            aria-label={s('class')}
            value={d.class_id ?? undefined}
            onChange={(v) => setClassId(v)}
            options={d.classes.map((c) => ({ value: c.id, label: c.name }))}
            style={{ width: '100%' }}
          />
          <Typography.Text type="secondary" data-testid="report-counts">
            {d.day} · {s('counts', { n: d.counts.students, sent: d.counts.sent, lacks: d.counts.lacks_comment })}
          </Typography.Text>
          <Card size="small">
            {d.list.length === 0 ? (
              <EmptyState description={s('no_students')} />
            ) : (
              <List
                dataSource={d.list}
                renderItem={(r) => (
                  <List.Item
                    data-testid="report-status-row"
                    actions={[
                      <Button
                        key="c"
                        size="small"
                        type={r.has_comment ? 'default' : 'primary'}
                        onClick={() => setWriting(r)}
                        data-testid="comment-open"
                      >
                        {s('write')}
                      </Button>,
                    ]}
                  >
                    <Space size={6} wrap>
                      <Typography.Text strong>{r.student_name}</Typography.Text>
                      {r.on_leave && <Tag>{s('on_leave')}</Tag>}
                      <Tag color={r.sent_at ? 'green' : 'default'}>{r.sent_at ? s('sent') : s('not_sent')}</Tag>
                      {r.lacks.map((l) => (
                        <Tag key={l} color={l === 'comment' ? 'red' : 'orange'}>
                          {s(`lack.${l}`)}
                        </Tag>
                      ))}
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </>
      )}
      {writing && d && <CommentPicker row={writing} day={d.day} onClose={() => setWriting(null)} />}
    </Flex>
  );
}

/** The quick-comment picker: preset phrases by 表现 / 作业 / 情绪, free text, saved with the version read. */
function CommentPicker({ row, day, onClose }: { row: Row; day: string; onClose: () => void }) {
  const s = reportsStrings.use();
  const lang = usePreferences((p) => p.lang);
  const qc = useQueryClient();
  const current = useQuery({
    queryKey: ['dailyReport', row.student_id, day],
    queryFn: () => get('dailyReport', { student_id: row.student_id, day }),
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const presets = chosen ?? current.data?.comment?.presets ?? [];
  const free = text ?? current.data?.comment?.text ?? '';
  const toggle = (key: string) => setChosen(presets.includes(key) ? presets.filter((k) => k !== key) : [...presets, key]);
  const save = async () => {
    if (!commentSaysSomething({ presets, text: free })) {
      feedback().message.error(s('need_something'));
      return;
    }
    setSaving(true);
    try {
      await post('saveDailyComment', {
        student_id: row.student_id,
        day,
        presets,
        text: free.trim(),
        photos: current.data?.comment?.photos ?? [],
        version: current.data?.comment?.version ?? 0,
      });
      feedback().message.success(s('saved'));
      await qc.invalidateQueries({ queryKey: ['classReportStatus'] });
      await qc.invalidateQueries({ queryKey: ['dailyReport', row.student_id] });
      onClose();
    } catch {
      // shown; a stale version: the reload below shows the newer comment
      void current.refetch();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer
      open
      placement="bottom"
      height="auto"
      title={`${s('write')} · ${row.student_name}`}
      onClose={onClose}
      extra={
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="comment-save" disabled={current.isLoading}>
          {s('save')}
        </Button>
      }
    >
      {current.isLoading ? (
        <Loading />
      ) : current.isError ? (
        <LoadError onRetry={() => void current.refetch()} />
      ) : (
        <Flex vertical gap={12}>
          {COMMENT_CATEGORIES.map((c) => (
            <div key={c}>
              <Typography.Text type="secondary">{s(`cat.${c}`)}</Typography.Text>
              <Flex gap={6} wrap style={{ marginTop: 4 }}>
                {presetsOf(c).map((p) => (
                  <Tag.CheckableTag
                    key={p.key}
                    checked={presets.includes(p.key)}
                    onChange={() => toggle(p.key)}
                    data-testid="comment-preset"
                    data-key={p.key}
                    style={{ padding: '4px 10px', fontSize: 14, border: '1px solid #d9d9d9' }}
                  >
                    {lang === 'en' ? p.en : p.zh}
                  </Tag.CheckableTag>
                ))}
              </Flex>
            </div>
          ))}
          <Input.TextArea
            aria-label={s('free_text')}
            placeholder={s('free_text')}
            value={free}
            onChange={(e) => setText(e.target.value)}
            maxLength={COMMENT_TEXT_MAX}
            showCount
            rows={3}
            data-testid="comment-text"
          />
        </Flex>
      )}
    </Drawer>
  );
}
