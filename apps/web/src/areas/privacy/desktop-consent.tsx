import { Alert, Button, Card, Flex, Modal, Space, Switch, Typography } from 'antd';
import type { ChildConsent, MyConsents, PolicyDoc, PrivacyPolicies } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { post } from '../../api/http';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { useSession } from '../../stores/session';
import { afterConsent, initialChoices, useAcceptConsent, useMyConsents, usePolicies, type Choices } from './consent-model';
import { PolicyText } from './policy-text';
import { privacyStrings } from './strings';

/**
 * /parent_consent (issue 37), the parent console's consent screen: the same steps as the phone app's (consent-model.ts):
 * both documents, the children they apply to with the two optional switches each, "同意并继续" with the versions shown,
 * then on to the page the guardian wanted; "不同意" explains and offers to sign out.
 */
export default function DesktopConsent() {
  const consents = useMyConsents();
  const docs = usePolicies();
  if (consents.isPending || docs.isPending) return <Loading />;
  if (!consents.data || !docs.data) return <LoadError onRetry={() => void Promise.all([consents.refetch(), docs.refetch()])} />;
  return <ConsentForm consents={consents.data} docs={docs.data} />;
}

function Doc({ doc }: { doc: PolicyDoc }) {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  return (
    <Card title={doc.title} size="small" data-testid={`consent-doc-${doc.kind}`}>
      <div className="policy-meta">{s('doc.version', { n: doc.version, day: clock.day(doc.published_at) })}</div>
      <div className="policy-scroll" tabIndex={0} aria-label={doc.title}>
        <PolicyText body={doc.body} skipTitle />
      </div>
    </Card>
  );
}

function ConsentForm({ consents, docs }: { consents: MyConsents; docs: PrivacyPolicies }) {
  const s = privacyStrings.use();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const clear = useSession((x) => x.clear);
  const { accept, busy, changed } = useAcceptConsent();
  const [choices, setChoices] = useState<Choices>(() => initialChoices(consents.children));
  const [declining, setDeclining] = useState(false);
  const choose = (c: ChildConsent, kind: 'photos' | 'health', on: boolean) => {
    const apply = () => setChoices((x) => ({ ...x, [c.student_id]: { ...(x[c.student_id] ?? { photos: false, health: false }), [kind]: on } }));
    // switching off a consent already given withdraws it: a health note already stored is erased
    if (!on && kind === 'health' && c.health === true) {
      Modal.confirm({ content: s('pd.withdraw_health', { name: c.name }), okText: s('pd.withdraw'), cancelText: s('pd.cancel'), onOk: apply });
    } else apply();
  };
  const go = async () => {
    if (await accept(docs, consents, choices)) navigate(afterConsent(params.get('redirect'), false), { replace: true });
  };
  const signOut = async () => {
    await post('logout', {}, { silent: true }).catch(() => undefined);
    clear();
    navigate('/login', { replace: true });
  };
  if (!consents.children.length) {
    return (
      <Space orientation="vertical" size="middle" style={{ width: '100%', maxWidth: 820 }}>
        <Card>
          <EmptyState description={s('consent.no_children')} />
        </Card>
        <Doc doc={docs.privacy} />
        <Doc doc={docs.children} />
      </Space>
    );
  }
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', maxWidth: 820 }}>
      {changed && <Alert type="warning" showIcon title={s('consent.changed')} data-testid="consent-changed" />}
      {!consents.needs_consent && <Alert type="success" showIcon title={s('consent.already')} />}
      <Typography.Paragraph style={{ margin: 0 }}>{s('consent.intro')}</Typography.Paragraph>
      <Doc doc={docs.privacy} />
      <Doc doc={docs.children} />
      <Card title={s('consent.children')} size="small" data-testid="consent-children">
        <Typography.Paragraph type="secondary">{s('consent.optional')}</Typography.Paragraph>
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {consents.children.map((c) => (
            <div key={c.student_id} data-testid={`consent-child-${c.student_id}`}>
              <Typography.Text strong>{c.name}</Typography.Text>
              {(['photos', 'health'] as const).map((kind) => (
                <Flex key={kind} gap={12} align="center" style={{ marginTop: 8 }}>
                  <Switch
                    checked={choices[c.student_id]?.[kind] ?? false}
                    onChange={(on) => choose(c, kind, on)}
                    aria-label={`${c.name} ${s(`consent.${kind}`)}`}
                    data-testid={`consent-${kind}-${c.student_id}`}
                  />
                  <span>
                    {s(`consent.${kind}`)}
                    <Typography.Text type="secondary"> · {s(`consent.${kind}_hint`)}</Typography.Text>
                  </span>
                </Flex>
              ))}
            </div>
          ))}
        </Space>
      </Card>
      <Flex gap={12} wrap>
        <Button type="primary" size="large" loading={busy} onClick={() => void go()} data-testid="consent-accept">
          {consents.needs_consent ? s('consent.accept') : s('consent.continue')}
        </Button>
        <Button size="large" onClick={() => setDeclining(true)} data-testid="consent-decline">
          {s('consent.decline')}
        </Button>
      </Flex>
      <Modal
        open={declining}
        title={s('consent.decline_title')}
        onCancel={() => setDeclining(false)}
        footer={[
          <Button key="back" onClick={() => setDeclining(false)}>
            {s('consent.back_to_read')}
          </Button>,
          <Button key="out" danger onClick={() => void signOut()}>
            {s('consent.sign_out')}
          </Button>,
        ]}
      >
        {s('consent.decline_body')}
      </Modal>
    </Space>
  );
}
