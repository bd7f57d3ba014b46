import { Button, Card, Col, Row, Statistic, Typography } from 'antd';
import type { TeacherTodayTask, TodayTaskList } from '@wantuo/shared';
import { useState } from 'react';
import { EmptyState } from '../../components/states';
import { FLOW_HEX } from './flow-look';
import { flowStrings, type FlowKey } from './strings';

const TILES: { key: FlowKey; list: TodayTaskList; color: string; value: (d: TeacherTodayTask) => number }[] = [
  { key: 'ops.to_pick_up', list: 'to_pick_up', color: '#8c8c8c', value: (d) => d.to_pick_up },
  { key: 'flow.state_picked_up', list: 'picked_up', color: FLOW_HEX.picked_up, value: (d) => d.states.picked_up },
  { key: 'flow.state_in_centre', list: 'in_centre', color: FLOW_HEX.in_centre, value: (d) => d.states.in_centre },
  { key: 'ops.to_feed', list: 'to_feed', color: '#13c2c2', value: (d) => d.to_feed },
  { key: 'ops.to_tutor', list: 'to_tutor', color: '#faad14', value: (d) => d.to_tutor },
  { key: 'ops.tutoring', list: 'tutoring', color: '#eb2f96', value: (d) => d.tutoring },
  { key: 'flow.state_left', list: 'left', color: FLOW_HEX.left, value: (d) => d.states.left },
  { key: 'flow.state_on_leave', list: 'on_leave', color: FLOW_HEX.on_leave, value: (d) => d.states.on_leave },
];

const tileStyle = (open: boolean) => ({
  width: '100%',
  textAlign: 'left' as const,
  padding: 8,
  borderRadius: 8,
  cursor: 'pointer',
  background: open ? '#f0f5ff' : 'transparent',
  border: `1px solid ${open ? '#adc6ff' : '#f0f0f0'}`,
  font: 'inherit',
});

const ROW = { display: 'flex', justifyContent: 'space-between', gap: 8, padding: '6px 0', borderBottom: '1px solid #f0f0f0' };

/**
 * The counts of the teacher's day (teacherTodayTask), each a button that opens the students behind it
 * (`students`, the first TODAY_TASK_LIST_MAX of each count): name and care class.
 */
export function TodayTiles({ d }: { d: TeacherTodayTask }) {
  const tf = flowStrings.use();
  const [open, setOpen] = useState<TodayTaskList | null>(null);
  const tile = TILES.find((x) => x.list === open);
  const students = open ? d.students[open] : [];
  const count = tile ? tile.value(d) : 0;
  return (
    <>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', marginBottom: 8 }}>
        {tf('today.students_hint')}
      </Typography.Text>
      <Row gutter={[12, 12]}>
        {TILES.map((x) => (
          <Col xs={12} sm={8} md={6} xl={3} key={x.list}>
            <button
              type="button"
              data-testid={`today-tile-${x.list}`}
              aria-expanded={open === x.list}
              style={tileStyle(open === x.list)}
              onClick={() => setOpen(open === x.list ? null : x.list)}
            >
              <Statistic title={tf(x.key)} value={x.value(d)} styles={{ content: { color: x.color } }} />
            </button>
          </Col>
        ))}
      </Row>
      {tile && (
        <Card
          size="small"
          data-testid={`today-students-${tile.list}`}
          title={tf('today.students_title', { label: tf(tile.key), n: count })}
          extra={
            <Button size="small" type="link" onClick={() => setOpen(null)}>
              {tf('today.students_close')}
            </Button>
          }
          style={{ marginTop: 12 }}
        >
          {students.length === 0 ? (
            <EmptyState description={tf('today.students_empty')} />
          ) : (
            <>
              {students.map((s) => (
                <div key={s.id} data-testid="today-student" style={ROW}>
                  <span>{s.name}</span>
                  <Typography.Text type="secondary">{s.class_name}</Typography.Text>
                </div>
              ))}
              {count > students.length && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="today-students-first">
                  {tf('today.students_first', { n: students.length })}
                </Typography.Text>
              )}
            </>
          )}
        </Card>
      )}
    </>
  );
}
