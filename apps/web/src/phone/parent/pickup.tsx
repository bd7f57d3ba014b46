import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import NoticeBar from 'antd-mobile/es/components/notice-bar';
import Tag from 'antd-mobile/es/components/tag';
import Toast from 'antd-mobile/es/components/toast';
import type { PickupShareRow } from '@wantuo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { get } from '../../api/http';
import { QrSvg } from '../../areas/pickup/qr-svg';
import { pickupStrings } from '../../areas/pickup/strings';
import { usePickupCode } from '../../areas/pickup/use-pickup-code';
import { useShareLinks } from '../../areas/pickup/use-share-links';
import { phoneStrings } from '../strings';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneError, PhoneLoading } from '../ui/states';
import { todayStrings } from './today-strings';
import './today.css';

/** /m/parent_pickup (接送码): the guardian's rotating code for the teacher to scan, and share links for the pick-up people. */
export default function ParentPickupPhone() {
  const qc = useQueryClient();
  return (
    <PhonePage
      onRefresh={() => qc.invalidateQueries({ queryKey: ['pickupCode'] }).then(() => qc.invalidateQueries({ queryKey: ['pickupShareLinks'] }))}
    >
      <CodeCard />
      <ShareLinks />
    </PhonePage>
  );
}

/** The code as a QR, renewed when its 30 s window ends (a countdown says when). */
function CodeCard() {
  const pt = pickupStrings.use();
  const { q, secondsLeft } = usePickupCode(['pickupCode'], () => get('pickupCode'));
  if (q.isPending) return <PhoneLoading rows={6} />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  const c = q.data;
  return (
    <Card className="m-section" title={pt('pickup.title')}>
      <div className="m-qr">
        <div data-testid="pickup-code" data-code={c.code}>
          <QrSvg value={c.code} size={232} label={pt('pickup.title')} />
        </div>
        <div className="m-strong">
          {c.name}（{c.relation}）
        </div>
        <div>{pt('pickup.for', { names: c.students.map((s) => s.name).join('、') })}</div>
        <div className="m-muted" data-testid="pickup-countdown" aria-live="polite">
          {pt('pickup.refresh_in', { s: secondsLeft })}
        </div>
        <div className="m-muted" style={{ fontSize: 12 }}>
          {pt('pickup.hint')}
        </div>
      </div>
    </Card>
  );
}

/** The pick-up people and their links: make (shown once), copy, revoke. */
function ShareLinks() {
  const pt = pickupStrings.use();
  const share = useShareLinks();
  return (
    <div className="m-section">
      <List header={pt('pickup.share_title')}>
        <List.Item>
          <span className="m-muted">{pt('pickup.share_hint')}</span>
        </List.Item>
      </List>
      <QueryView query={share.links} isEmpty={(d) => d.list.length === 0} empty={pt('pickup.share_empty')} rows={3}>
        {(d) => (
          <>
            {d.list.map((p) => (
              <Person key={p.pickup_person_id} p={p} share={share} />
            ))}
          </>
        )}
      </QueryView>
    </div>
  );
}

function Person({ p, share }: { p: PickupShareRow; share: ReturnType<typeof useShareLinks> }) {
  const pt = pickupStrings.use();
  const tt = todayStrings.use();
  const t = phoneStrings.use();
  const id = p.pickup_person_id;
  const made = share.made[id];
  const copy = async () => {
    const ok = await share.copy(id);
    Toast.show({ content: ok ? pt('pickup.share_copied') : tt('pt.copy_failed'), icon: ok ? 'success' : undefined });
  };
  const revoke = async () => {
    if (!p.link) return;
    const yes = await Dialog.confirm({
      content: pt('pickup.share_revoke_confirm'),
      confirmText: pt('pickup.share_revoke'),
      cancelText: t('m.cancel'),
    });
    if (yes) await share.revoke(id, p.link.id).catch(() => undefined);
  };
  return (
    <div className="m-pad" style={{ borderTop: '1px solid #f0f0f0' }} data-testid="pickup-person" data-person={id}>
      <div className="m-card-title" style={{ marginBottom: 4 }}>
        <span className="m-strong">
          {p.name}（{p.relation}）
        </span>
        {p.link ? <Tag color="success">{pt('pickup.share_active')}</Tag> : <Tag>{pt('pickup.share_none')}</Tag>}
      </div>
      <div className="m-sub">{p.students.map((s) => s.name).join('、')}</div>
      {made && (
        <>
          <div className="m-muted" style={{ margin: '8px 0 4px' }}>
            {tt('pt.link_made')}
          </div>
          <div className="m-link" data-testid="pickup-link">
            {made}
          </div>
          {share.texted[id] && (
            <NoticeBar
              color="success"
              content={pt('pickup.share_texted', { mobile: p.mobile })}
              wrap
              data-testid="pickup-link-sent"
              style={{ marginTop: 8 }}
            />
          )}
        </>
      )}
      <div className="m-row-buttons">
        <Button color="primary" fill="outline" onClick={() => void share.create(id).catch(() => undefined)} data-testid="pickup-link-create">
          {p.link ? pt('pickup.share_renew') : pt('pickup.share_create')}
        </Button>
        {made && (
          <Button onClick={() => void copy()} data-testid="pickup-link-copy">
            {pt('pickup.share_copy')}
          </Button>
        )}
        {p.link && (
          <Button color="danger" fill="outline" onClick={() => void revoke()} data-testid="pickup-link-revoke">
            {pt('pickup.share_revoke')}
          </Button>
        )}
      </div>
    </div>
  );
}
