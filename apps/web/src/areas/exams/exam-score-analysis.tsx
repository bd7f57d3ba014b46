import { useQuery } from '@tanstack/react-query';
import { Card, Col, Flex, Row, Statistic, Table } from 'antd';
import type { ExamScoreAnswer } from '@wantuo/shared';
import { useMemo } from 'react';
import { barOption } from '../data/attendance-tab';
import { ChartCard } from '../data/chart-card';
import { mark } from './common';
import { examStrings } from './strings';

/** The score grid's analysis tab: the statistics, the distribution chart and the figures by class. */
export function Analysis({ answer, query }: { answer: ExamScoreAnswer; query: ReturnType<typeof useQuery<ExamScoreAnswer>> }) {
  const s = examStrings.use();
  const st = answer.stats;
  const option = useMemo(
    () =>
      barOption(
        answer.bands.map((b) => b.label),
        [{ name: s('an.people'), data: answer.bands.map((b) => b.count), color: '#1677ff' }],
        { legend: { show: false } },
      ),
    [answer.bands, s],
  );
  const rate = (v: number | null) => (v === null ? '-' : `${v}%`);
  return (
    <Flex vertical gap={12}>
      <Card size="small">
        <Row gutter={[12, 12]}>
          {(
            [
              ['an.students', st.students],
              ['an.count', st.count],
              ['an.absent', st.absent],
              ['an.average', mark(st.average)],
              ['an.highest', mark(st.highest)],
              ['an.lowest', mark(st.lowest)],
              ['an.pass_rate', rate(st.pass_rate)],
            ] as const
          ).map(([k, v]) => (
            <Col key={k} xs={8} sm={6} md={3}>
              <Statistic title={s(k)} value={v} styles={{ content: { fontSize: 20 } }} />
            </Col>
          ))}
        </Row>
      </Card>
      <ChartCard
        title={s('an.chart')}
        query={query}
        empty={st.count === 0}
        emptyText={s('an.chart_empty')}
        option={option}
        height={260}
        summary={s('an.summary', { n: st.count, avg: mark(st.average), rate: rate(st.pass_rate) })}
        exportAs={{ action: 'examScoreExport', params: { exam_id: answer.exam.id }, filename: `成绩-${answer.exam.name}.xlsx` }}
      />
      <Card size="small" title={s('an.by_class')}>
        <Table
          rowKey="class_id"
          size="small"
          pagination={false}
          dataSource={answer.classes}
          scroll={{ x: 480 }}
          columns={[
            { title: s('an.class'), dataIndex: 'class_name' },
            { title: s('an.count'), dataIndex: 'count', width: 60 },
            { title: s('an.absent'), dataIndex: 'absent', width: 60 },
            { title: s('an.average'), dataIndex: 'average', width: 70, render: (v: number | null) => mark(v) },
            { title: s('an.highest'), dataIndex: 'highest', width: 70, render: (v: number | null) => mark(v) },
            { title: s('an.lowest'), dataIndex: 'lowest', width: 70, render: (v: number | null) => mark(v) },
            { title: s('an.pass_rate'), dataIndex: 'pass_rate', width: 70, render: (v: number | null) => rate(v) },
          ]}
        />
      </Card>
    </Flex>
  );
}
