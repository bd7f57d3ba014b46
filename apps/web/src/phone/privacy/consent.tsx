import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import NoticeBar from 'antd-mobile/es/components/notice-bar';
import Switch from 'antd-mobile/es/components/switch';
import type { ChildConsent, MyConsents, PolicyDoc, PrivacyPolicies } from '@wantuo/shared';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { post } from '../../api/http';
import { afterConsent, initialChoices, useAcceptConsent, useMyConsents, usePolicies, type Choices } from '../../areas/privacy/consent-model';
import { PolicyText } from '../../areas/privacy/policy-text';
import { privacyStrings } from '../../areas/privacy/strings';
import { useSchoolClock } from '../../lib/school-time';
import { useSession } from '../../stores/session';
import { forgetOfflineData } from '../sw-register';
import { PhonePage } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import './privacy.css';

/**
 * /m/parent_consent (issue 37): before any child's data is shown, the guardian reads the privacy policy and the
 * children's rules, sees the children they apply to, may grant photos and health notes for each (separately, both
 * optional), and accepts the versions shown; then on to the page they wanted. Declining says why the app cannot go on
 * and offers to sign out.
 */
export default function PhoneConsent() {
  const consents = useMyConsents();
  const docs = usePolicies();
  const retry = () => void Promise.all([consents.refetch(), docs.refetch()]);
  return (
    <PhonePage>
      {consents.isPending || docs.isPending ? (
        <PhoneLoading rows={8} />
      ) : !consents.data || !docs.data ? (
        <PhoneError error={consents.error ?? docs.error} onRetry={retry} />
      ) : (
        <ConsentForm consents={consents.data} docs={docs.data} />
      )}
    </PhonePage>
  );
}

function Doc({ doc }: { doc: PolicyDoc }) {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  return (
    <Card className="m-section pv-doc" title={doc.title} data-testid={`consent-doc-${doc.kind}`}>
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
  const { accept, busy, changed } = useAcceptConsent();
  const [choices, setChoices] = useState<Choices>(() => initialChoices(consents.children));
  const choose = async (c: ChildConsent, kind: 'photos' | 'health', on: boolean) => {
    // switching off a consent already given withdraws it: a health note already stored is erased
    if (!on && kind === 'health' && c.health === true) {
      const ok = await Dialog.confirm({
        content: s('pd.withdraw_health', { name: c.name }),
        confirmText: s('pd.withdraw'),
        cancelText: s('pd.cancel'),
      });
      if (!ok) return;
    }
    setChoices((x) => ({ ...x, [c.student_id]: { ...(x[c.student_id] ?? { photos: false, health: false }), [kind]: on } }));
  };
  const go = async () => {
    if (await accept(docs, consents, choices)) navigate(afterConsent(params.get('redirect'), true), { replace: true });
  };
  if (!consents.children.length) {
    return (
      <>
        <PhoneEmpty description={s('consent.no_children')} />
        <Doc doc={docs.privacy} />
        <Doc doc={docs.children} />
      </>
    );
  }
  return (
    <>
      {changed && <NoticeBar className="m-section" color="alert" wrap content={s('consent.changed')} data-testid="consent-changed" />}
      {!consents.needs_consent && <NoticeBar className="m-section" color="info" wrap content={s('consent.already')} />}
      <div className="m-section m-pad pv-intro">{s('consent.intro')}</div>
      <Doc doc={docs.privacy} />
      <Doc doc={docs.children} />
      <List className="m-section" header={s('consent.children')} data-testid="consent-children">
        <div className="pv-hint">{s('consent.optional')}</div>
        {consents.children.map((c) => (
          <ChildChoices key={c.student_id} child={c} chosen={choices[c.student_id]} onChoose={choose} />
        ))}
      </List>
      <div className="pv-actions">
        <Button block color="primary" size="large" loading={busy} onClick={() => void go()} data-testid="consent-accept">
          {consents.needs_consent ? s('consent.accept') : s('consent.continue')}
        </Button>
        <Decline />
      </div>
    </>
  );
}

function ChildChoices({
  child,
  chosen,
  onChoose,
}: {
  child: ChildConsent;
  chosen: Choices[number] | undefined;
  onChoose: (c: ChildConsent, kind: 'photos' | 'health', on: boolean) => void;
}) {
  const s = privacyStrings.use();
  return (
    <div className="pv-child" data-testid={`consent-child-${child.student_id}`}>
      <div className="pv-child-name">{child.name}</div>
      {(['photos', 'health'] as const).map((kind) => (
        <List.Item
          key={kind}
          description={s(`consent.${kind}_hint`)}
          extra={
            <Switch
              checked={chosen?.[kind] ?? false}
              onChange={(on) => onChoose(child, kind, on)}
              aria-label={`${child.name} ${s(`consent.${kind}`)}`}
              data-testid={`consent-${kind}-${child.student_id}`}
            />
          }
        >
          {s(`consent.${kind}`)}
        </List.Item>
      ))}
    </div>
  );
}

/** "不同意": why the app cannot go on without it, and signing out. */
function Decline() {
  const s = privacyStrings.use();
  const clear = useSession((x) => x.clear);
  const decline = async () => {
    const out = await Dialog.confirm({
      title: s('consent.decline_title'),
      content: s('consent.decline_body'),
      confirmText: s('consent.sign_out'),
      cancelText: s('consent.back_to_read'),
    });
    if (!out) return;
    await post('logout', undefined, { silent: true }).catch(() => undefined);
    clear();
    await forgetOfflineData();
    window.location.replace('/login');
  };
  return (
    <Button block size="large" onClick={() => void decline()} data-testid="consent-decline">
      {s('consent.decline')}
    </Button>
  );
}
