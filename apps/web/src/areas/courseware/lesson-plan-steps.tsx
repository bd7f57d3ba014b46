import { Button, Card, Flex, Form, Input, InputNumber, Space, Typography } from 'antd';
import { lessonStrings } from './lesson-strings';

/** The steps of a lesson plan, inside its form (the list "steps"): title, minutes and content; moved, deleted, added (20 at most). */
export function PlanSteps({ readOnly }: { readOnly: boolean }) {
  const s = lessonStrings.use();
  return (
    <Form.List name="steps">
      {(fields, { add, remove, move: moveStep }) => (
        <Flex vertical gap={8}>
          {fields.map((f, i) => (
            <Card key={f.key} size="small" styles={{ body: { padding: 12 } }}>
              <Flex gap={8} wrap align="flex-start">
                <Typography.Text type="secondary" style={{ lineHeight: '32px' }}>
                  {i + 1}.
                </Typography.Text>
                <Form.Item
                  name={[f.name, 'title']}
                  rules={[{ required: true, whitespace: true, message: s('required') }]}
                  style={{ flex: '1 1 160px', minWidth: 0, marginBottom: 8 }}
                >
                  <Input maxLength={60} placeholder={s('step_title')} aria-label={s('step_title')} />
                </Form.Item>
                <Form.Item name={[f.name, 'minutes']} style={{ width: 110, marginBottom: 8 }}>
                  <InputNumber min={0} max={240} precision={0} suffix={s('step_minutes')} style={{ width: '100%' }} aria-label={s('step_minutes')} />
                </Form.Item>
                {!readOnly && (
                  <Space size={4}>
                    <Button size="small" disabled={i === 0} onClick={() => moveStep(i, i - 1)} aria-label={s('up')}>
                      ↑
                    </Button>
                    <Button size="small" disabled={i === fields.length - 1} onClick={() => moveStep(i, i + 1)} aria-label={s('down')}>
                      ↓
                    </Button>
                    <Button size="small" danger onClick={() => remove(f.name)}>
                      {s('delete')}
                    </Button>
                  </Space>
                )}
              </Flex>
              <Form.Item name={[f.name, 'content']} style={{ marginBottom: 0 }}>
                <Input.TextArea
                  maxLength={1000}
                  autoSize={{ minRows: 1, maxRows: 5 }}
                  placeholder={s('step_content')}
                  aria-label={s('step_content')}
                />
              </Form.Item>
            </Card>
          ))}
          {!readOnly && fields.length < 20 && (
            <Button type="dashed" onClick={() => add({ title: '' })}>
              + {s('add_step')}
            </Button>
          )}
        </Flex>
      )}
    </Form.List>
  );
}
