import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Space } from 'antd';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { LoadError, Loading } from '../../components/states';
import { usePageConfig } from '../../stores/page-config';
import { useT } from '../../stores/preferences';
import { operatorStrings } from './strings';
import { queryKey } from '../../api/query';

function PageConfigForm() {
  const t = useT();
  const op = operatorStrings.use();
  const setConfig = usePageConfig((s) => s.set);
  const client = useQueryClient();
  const q = useQuery({ queryKey: queryKey('index'), queryFn: () => get('index') });
  // a stale version is shown as "changed by someone else" by the request wrapper
  const saveIndex = useAction('index', {
    success: t('common.saved'),
    onDone: (next) => {
      setConfig(next);
      client.setQueryData(queryKey('index'), next);
    },
  });
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => q.refetch()} />;
  const c = q.data;
  const save = async (v: {
    site_name: string;
    footer: string;
    icp: string;
    police_filing: string;
    phone: string;
    email: string;
    address: string;
  }) => {
    const orNull = (s: string | undefined) => (s && s.trim() ? s.trim() : null);
    await saveIndex.run({
      ...c,
      site_name: v.site_name.trim(),
      footer: { text: v.footer ?? '', icp: orNull(v.icp), police_filing: orNull(v.police_filing) },
      contact: { phone: orNull(v.phone), email: orNull(v.email), address: orNull(v.address) },
    });
  };
  return (
    <Form
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={save}
      initialValues={{
        site_name: c.site_name,
        footer: c.footer.text,
        icp: c.footer.icp,
        police_filing: c.footer.police_filing ?? null,
        phone: c.contact.phone,
        email: c.contact.email,
        address: c.contact.address,
      }}
    >
      <Alert type="info" showIcon title={op('operator.conflict_hint')} style={{ marginBottom: 16 }} />
      <Form.Item name="site_name" label={op('operator.site_name')} rules={[{ required: true, whitespace: true, max: 60 }]}>
        <Input maxLength={60} />
      </Form.Item>
      <Form.Item name="footer" label={op('operator.footer')}>
        <Input.TextArea maxLength={500} rows={2} />
      </Form.Item>
      <Space wrap>
        <Form.Item name="icp" label={op('operator.icp')}>
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item name="police_filing" label={op('operator.police_filing')} tooltip={op('operator.police_filing_hint')}>
          <Input maxLength={60} placeholder="京公网安备11010502030143号" />
        </Form.Item>
        <Form.Item name="phone" label={op('operator.phone')}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="email" label={op('operator.email')}>
          <Input maxLength={100} />
        </Form.Item>
      </Space>
      <Form.Item name="address" label={op('operator.address')}>
        <Input maxLength={200} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saveIndex.busy}>
        {t('common.save')}
      </Button>
    </Form>
  );
}

function AboutForm() {
  const t = useT();
  const client = useQueryClient();
  const q = useQuery({ queryKey: queryKey('aboutUs'), queryFn: () => get('aboutUs') });
  const saveAbout = useAction('aboutUs', { success: t('common.saved'), onDone: (next) => client.setQueryData(queryKey('aboutUs'), next) });
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError onRetry={() => q.refetch()} />;
  const save = ({ content }: { content: string }) => saveAbout.run({ content, version: q.data!.version });
  return (
    <Form layout="vertical" onFinish={save} initialValues={{ content: q.data.content }} key={q.data.version}>
      <Form.Item name="content" label="HTML" rules={[{ required: true }]}>
        <Input.TextArea rows={10} maxLength={100_000} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saveAbout.busy}>
        {t('common.save')}
      </Button>
    </Form>
  );
}

/** The platform operator edits the start-up page configuration and the about-us text. */
export default function OperatorSite() {
  const op = operatorStrings.use();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={op('operator.site')}>
        <PageConfigForm />
      </Card>
      <Card title={op('operator.about')}>
        <AboutForm />
      </Card>
    </Space>
  );
}
