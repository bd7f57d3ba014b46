import { Alert, Card, Descriptions, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';

interface Health {
  status: string;
  database: string;
  redis: string;
}

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; siteName: string; health: Health };

async function load(): Promise<State> {
  const [index, health] = await Promise.all([fetch('/api/index/index'), fetch('/api/health')]);
  const indexBody = await index.json();
  const healthBody = await health.json();
  if (indexBody.code !== 200) return { kind: 'error', message: indexBody.msg ?? '请求失败' };
  return { kind: 'ready', siteName: indexBody.data.site_name, health: healthBody.data };
}

const colour = (s: string) => (s === 'up' || s === 'ok' ? 'green' : s === 'not configured' ? 'default' : 'red');

/** Start page until the app shell lands: the site name from the page configuration and the service status. */
export function StatusPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    load()
      .then(setState)
      .catch(() => setState({ kind: 'error', message: '请求失败' }));
  }, []);

  return (
    <div style={{ maxWidth: 640, margin: '48px auto', padding: '0 16px' }}>
      {state.kind === 'loading' && <Spin tip="加载中" size="large" fullscreen />}
      {state.kind === 'error' && <Alert type="error" showIcon title="无法连接服务" description={state.message} />}
      {state.kind === 'ready' && (
        <Card title={<Typography.Title level={3} style={{ margin: 0 }}>{state.siteName}</Typography.Title>}>
          <Typography.Paragraph>学校与晚托机构管理平台：班级、接送、考勤、餐食与家校沟通。</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered title="服务状态">
            <Descriptions.Item label="服务">
              <Tag color={colour(state.health.status)}>{state.health.status}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="数据库">
              <Tag color={colour(state.health.database)}>{state.health.database}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Redis">
              <Tag color={colour(state.health.redis)}>{state.health.redis}</Tag>
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
    </div>
  );
}
