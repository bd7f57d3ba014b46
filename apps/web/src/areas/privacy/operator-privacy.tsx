import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Form, Input, Modal, Row, Segmented, Space, Tabs, Typography, type FormInstance } from 'antd';
import { fillPolicy, POLICY_KINDS, type PolicyKind, type PolicyVersion } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { usePageConfig } from '../../stores/page-config';
import { POLICIES_KEY, usePolicies } from './consent-paths';
import { privacyConsoleStrings } from './console-strings';
import { PolicyText } from './policy-text';
import { privacyStrings } from './strings';

const PAGE = 10;
/** the names a document's text is filled with (fillPolicy), as the operator writes them */
const PLACEHOLDERS = { platform: '{{platform}}', school: '{{school}}' };

/** What the editor holds: a version's text, both languages, unfilled. */
type Draft = Pick<PolicyVersion, 'title' | 'summary' | 'body_zh' | 'body_en'>;
const EMPTY: Draft = { title: '', summary: '', body_zh: '', body_en: '' };
const draftOf = (v: PolicyVersion | null): Draft => (v ? { title: v.title, summary: '', body_zh: v.body_zh, body_en: v.body_en } : EMPTY);

/**
 * /operator_privacy 隐私政策管理 (issue 37): for each document (the privacy policy, the children's rules) the current
 * version, its history (server-paged) and the editor of the next one, with a preview as guardians will read it
 * ({{platform}} and {{school}} filled in). Publishing says that every guardian must accept again, and sends the
 * version the editor started from: when someone published meanwhile the API refuses, the page says so and offers the
 * newer version (the edits are kept until then).
 */
export default function OperatorPrivacy() {
  const s = privacyStrings.use();
  const cs = privacyConsoleStrings.use();
  const [kind, setKind] = useState<PolicyKind>('privacy');
  return (
    <Card
      title={cs('op.title')}
      extra={
        <Segmented<PolicyKind>
          aria-label={cs('op.kind')}
          value={kind}
          onChange={setKind}
          options={POLICY_KINDS.map((k) => ({ value: k, label: s(`doc.${k}`) }))}
          data-testid="policy-kind"
        />
      }
    >
      <Typography.Paragraph type="secondary">{cs('op.intro')}</Typography.Paragraph>
      <KindPanel key={kind} kind={kind} />
    </Card>
  );
}

/** The current version of `kind`: the newest of its history. */
function useCurrent(kind: PolicyKind) {
  return useQuery({
    queryKey: queryKey('privacyPolicyHistory', { kind, page: 1, limit: 1 }),
    queryFn: () => get('privacyPolicyHistory', { kind, page: 1, limit: 1 }),
    select: (d) => d.list[0] ?? null,
  });
}

function KindPanel({ kind }: { kind: PolicyKind }) {
  const current = useCurrent(kind);
  const [form] = Form.useForm<Draft>();
  if (current.isPending) return <Loading />;
  if (current.isError) return <LoadError onRetry={() => void current.refetch()} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Current version={current.data} />
      <Editor kind={kind} form={form} current={current.data} onReload={() => current.refetch().then((r) => r.data ?? null)} />
      <History kind={kind} onUse={(v) => form.setFieldsValue({ title: v.title, body_zh: v.body_zh, body_en: v.body_en })} />
    </Space>
  );
}

function Current({ version }: { version: PolicyVersion | null }) {
  const cs = privacyConsoleStrings.use();
  const clock = useSchoolClock();
  return (
    <Card size="small" title={cs('op.current')} data-testid="policy-current">
      {version ? (
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={cs('op.col.version')}>
            {cs('op.current_meta', { n: version.version, at: clock.dateTime(version.published_at), by: version.published_by_name ?? '-' })}
          </Descriptions.Item>
          <Descriptions.Item label={cs('op.col.title')}>{version.title}</Descriptions.Item>
          <Descriptions.Item label={cs('op.col.summary')}>{version.summary || '-'}</Descriptions.Item>
        </Descriptions>
      ) : (
        <EmptyState description={cs('op.none')} />
      )}
    </Card>
  );
}

/** The platform's name as the documents are filled with it (privacyPolicies'; the site's configuration meanwhile). */
function usePlatformName(): string {
  const docs = usePolicies();
  const site = usePageConfig((c) => c.config?.site_name);
  return docs.data?.platform_name || site || '';
}

/** A document's text as guardians read it: the names filled in (the school as an example), in one language. */
function Preview({ body, platform }: { body: string; platform: string }) {
  const cs = privacyConsoleStrings.use();
  if (!body.trim()) return <EmptyState description={cs('op.preview_empty')} />;
  return <PolicyText body={fillPolicy(body, { platform, school: cs('op.preview_school') })} />;
}

function Editor({
  kind,
  form,
  current,
  onReload,
}: {
  kind: PolicyKind;
  form: FormInstance<Draft>;
  current: PolicyVersion | null;
  onReload: () => Promise<PolicyVersion | null>;
}) {
  const s = privacyStrings.use();
  const cs = privacyConsoleStrings.use();
  const qc = useQueryClient();
  const platform = usePlatformName();
  // the version the edits start from: what publishing says it replaces (expected_version)
  const [base, setBase] = useState<PolicyVersion | null>(current);
  const [confirming, setConfirming] = useState<Draft | null>(null);
  const baseVersion = base?.version ?? 0;
  const newer = current && current.version !== baseVersion ? current : null;
  const bodyZh = (Form.useWatch('body_zh', form) as string | undefined) ?? '';
  const bodyEn = (Form.useWatch('body_en', form) as string | undefined) ?? '';

  const load = (v: PolicyVersion | null) => {
    setBase(v);
    form.setFieldsValue(draftOf(v));
  };
  const publish = useAction('publishPrivacyPolicy', {
    success: (v) => cs('op.published', { n: v.version }),
    onDone: (v) => {
      setConfirming(null);
      load(v);
      void qc.invalidateQueries({ queryKey: queryKey('privacyPolicyHistory', { kind }) });
      void qc.invalidateQueries({ queryKey: POLICIES_KEY });
    },
    // refused (the request wrapper has said why): the current version is read again, a newer one offered
    onError: () => {
      setConfirming(null);
      void onReload();
    },
  });
  const ask = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setConfirming({ title: v.title.trim(), summary: v.summary.trim(), body_zh: v.body_zh.trim(), body_en: (v.body_en ?? '').trim() });
  };
  const required = { required: true, whitespace: true, message: cs('op.required') };
  return (
    <Card size="small" title={base ? cs('op.edit_based', { n: base.version }) : cs('op.edit')} data-testid="policy-editor">
      {newer && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={cs('op.stale', { n: newer.version, m: baseVersion })}
          action={
            <Button size="small" onClick={() => load(newer)} data-testid="policy-load-latest">
              {cs('op.load_latest')}
            </Button>
          }
          data-testid="policy-stale"
        />
      )}
      <Row gutter={24}>
        <Col xs={24} lg={12}>
          <Form<Draft> form={form} layout="vertical" initialValues={draftOf(current)} autoComplete="off">
            <Form.Item name="title" label={cs('op.f_title')} rules={[required, { max: 60 }]}>
              <Input maxLength={60} />
            </Form.Item>
            <Form.Item name="summary" label={cs('op.f_summary')} extra={cs('op.f_summary_hint')} rules={[required, { max: 200 }]}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item
              name="body_zh"
              label={cs('op.f_body_zh')}
              extra={cs('op.f_body_hint', PLACEHOLDERS)}
              rules={[required, { min: 20, message: cs('op.body_min') }, { max: 20_000 }]}
            >
              {/* no character count: antd draws it under the box, over the hint (20,000 is far past any policy) */}
              <Input.TextArea rows={14} maxLength={20_000} />
            </Form.Item>
            <Form.Item name="body_en" label={cs('op.f_body_en')} rules={[{ max: 20_000 }]}>
              <Input.TextArea rows={8} maxLength={20_000} />
            </Form.Item>
          </Form>
          <Space wrap>
            <Button type="primary" onClick={() => void ask()} loading={publish.busy} data-testid="policy-publish">
              {cs('op.publish')}
            </Button>
            <Button onClick={() => form.setFieldsValue(draftOf(base))}>{cs('op.reset')}</Button>
          </Space>
        </Col>
        <Col xs={24} lg={12}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {cs('op.preview')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {cs('op.preview_hint', { placeholder: PLACEHOLDERS.school, school: cs('op.preview_school') })}
          </Typography.Paragraph>
          <Tabs
            size="small"
            items={[
              { key: 'zh', label: cs('op.preview_zh'), children: <Preview body={bodyZh} platform={platform} /> },
              { key: 'en', label: cs('op.preview_en'), children: <Preview body={bodyEn} platform={platform} /> },
            ]}
            data-testid="policy-preview"
          />
        </Col>
      </Row>
      <Modal
        open={confirming !== null}
        title={cs('op.publish_title', { doc: s(`doc.${kind}`), n: baseVersion + 1 })}
        okText={cs('op.publish_ok')}
        cancelText={cs('pp.cancel')}
        okButtonProps={{ danger: true, loading: publish.busy }}
        onOk={() => confirming && void publish.run({ kind, ...confirming, expected_version: baseVersion })}
        onCancel={() => setConfirming(null)}
      >
        <Alert type="warning" showIcon title={cs('op.publish_confirm')} />
        {confirming && (
          <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0 }}>
            {confirming.title} · {confirming.summary}
          </Typography.Paragraph>
        )}
      </Modal>
    </Card>
  );
}

/** The document's versions, newest first, a server page at a time; one can be read, or taken as the editor's text. */
function History({ kind, onUse }: { kind: PolicyKind; onUse: (v: PolicyVersion) => void }) {
  const cs = privacyConsoleStrings.use();
  const clock = useSchoolClock();
  const platform = usePlatformName();
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<PolicyVersion | null>(null);
  const q = useQuery({
    queryKey: queryKey('privacyPolicyHistory', { kind, page, limit: PAGE }),
    queryFn: () => get('privacyPolicyHistory', { kind, page, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card size="small" title={cs('op.history')}>
      <ServerTable<PolicyVersion>
        query={q}
        page={q.data?.page ?? page}
        onPage={setPage}
        pageSize={q.data?.limit ?? PAGE}
        size="small"
        scroll={{ x: 760 }}
        data-testid="policy-history"
        locale={{ emptyText: <EmptyState description={cs('op.history_empty')} /> }}
        columns={[
          { title: cs('op.col.version'), key: 'v', width: 80, render: (_, v) => cs('op.version_n', { n: v.version }) },
          { title: cs('op.col.title'), key: 'title', width: 180, render: (_, v) => v.title },
          { title: cs('op.col.summary'), key: 'summary', render: (_, v) => v.summary || '-' },
          { title: cs('op.col.at'), key: 'at', width: 140, render: (_, v) => clock.dateTime(v.published_at) },
          { title: cs('op.col.by'), key: 'by', width: 100, render: (_, v) => v.published_by_name ?? '-' },
          {
            title: cs('op.col.actions'),
            key: 'a',
            width: 150,
            render: (_, v) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => setViewing(v)}>
                  {cs('op.view')}
                </Button>
                <Button type="link" size="small" onClick={() => onUse(v)}>
                  {cs('op.use')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={viewing !== null}
        title={viewing ? `${viewing.title} · ${cs('op.version_n', { n: viewing.version })}` : ''}
        footer={null}
        width={760}
        onCancel={() => setViewing(null)}
      >
        {viewing && (
          <Tabs
            size="small"
            items={[
              { key: 'zh', label: cs('op.preview_zh'), children: <Preview body={viewing.body_zh} platform={platform} /> },
              { key: 'en', label: cs('op.preview_en'), children: <Preview body={viewing.body_en} platform={platform} /> },
            ]}
          />
        )}
      </Modal>
    </Card>
  );
}
