import Button from 'antd-mobile/es/components/button';
import CapsuleTabs from 'antd-mobile/es/components/capsule-tabs';
import Card from 'antd-mobile/es/components/card';
import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import Popup from 'antd-mobile/es/components/popup';
import Switch from 'antd-mobile/es/components/switch';
import Tag from 'antd-mobile/es/components/tag';
import TextArea from 'antd-mobile/es/components/text-area';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { PRIVACY_DEFAULTS, type ChildConsent, type PrivacyRequestKind, type PrivacyRequestStatus } from '@wantuo/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { download } from '../../api/download';
import { inWechat, userAgent } from '../../lib/wechat-env';
import { feedback } from '../../api/feedback';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { nextPageOf, queryKey } from '../../api/query';
import { useChosenChildStore } from '../../areas/parent/chosen-child';
import { useMyConsents, useSetConsent } from '../../areas/privacy/consent-model';
import { PHONE_POLICY_PATHS } from '../../areas/privacy/links';
import { privacyStrings, roleLabel } from '../../areas/privacy/strings';
import { useSchoolClock } from '../../lib/school-time';
import { MorePages } from '../parent/more-parts';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import './privacy.css';

const LOG_PAGE = 20;
const REQUEST_PAGE = 10;
const STATUS_COLOR: Record<PrivacyRequestStatus, string> = { open: 'warning', done: 'success', refused: 'default' };

/**
 * 我的 → 隐私与数据 (/m/parent_privacy, issue 37): for each child, the photo and health consents (withdrawn at once,
 * after a dialog saying what goes), the documents (withdrawn: the app asks again), who read the child's data (the
 * access log, paged by the server), the download of everything held, correction and deletion requests; then the
 * guardian's requests with their state and due day.
 */
export default function PhonePrivacy() {
  const s = privacyStrings.use();
  const qc = useQueryClient();
  const consents = useMyConsents();
  const chosen = useChosenChildStore((x) => x.id);
  const choose = useChosenChildStore((x) => x.choose);
  const refresh = () =>
    Promise.all(
      (['myConsents', 'childAccessLog', 'myPrivacyRequests'] as const).map((a) => qc.refetchQueries({ queryKey: queryKey(a), type: 'active' })),
    );
  return (
    <PhonePage onRefresh={refresh}>
      <QueryView query={consents} isEmpty={(d) => d.children.length === 0} empty={s('pd.no_children')} rows={6}>
        {(d) => {
          // the child chosen on the other parent pages (remembered for the visit), else the first
          const kid = d.children.find((c) => c.student_id === chosen) ?? d.children[0];
          return (
            <>
              {d.children.length > 1 && (
                <div className="m-section">
                  <CapsuleTabs activeKey={String(kid.student_id)} onChange={(k) => choose(Number(k))}>
                    {d.children.map((k) => (
                      <CapsuleTabs.Tab key={String(k.student_id)} title={k.name} />
                    ))}
                  </CapsuleTabs>
                </div>
              )}
              <ChildPrivacy key={kid.student_id} child={kid} />
              <Requests />
            </>
          );
        }}
      </QueryView>
    </PhonePage>
  );
}

function ChildPrivacy({ child }: { child: ChildConsent }) {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  const { set, busy } = useSetConsent();
  const toggle = async (kind: 'photos' | 'health', on: boolean) => {
    if (!on) {
      const ok = await Dialog.confirm({
        content: s(kind === 'photos' ? 'pd.withdraw_photos' : 'pd.withdraw_health', { name: child.name }),
        confirmText: s('pd.withdraw'),
        cancelText: s('pd.cancel'),
      });
      if (!ok) return;
    }
    await set(child.student_id, kind, on);
  };
  const withdrawDocuments = async () => {
    const ok = await Dialog.confirm({
      content: s('pd.withdraw_documents_confirm', { name: child.name }),
      confirmText: s('pd.withdraw'),
      cancelText: s('pd.cancel'),
    });
    if (ok) await set(child.student_id, 'policies', false);
  };
  return (
    <>
      <List className="m-section" header={s('pd.consents')} data-testid="privacy-consents">
        {(['photos', 'health'] as const).map((kind) => (
          <List.Item
            key={kind}
            description={`${s(`consent.${kind}_hint`)}${child[kind] === null ? ` · ${s('pd.undecided')}` : ''}`}
            extra={
              <Switch
                checked={child[kind] === true}
                loading={busy === `${child.student_id}:${kind}`}
                onChange={(on) => void toggle(kind, on)}
                aria-label={`${child.name} ${s(`consent.${kind}`)}`}
                data-testid={`privacy-${kind}`}
              />
            }
          >
            {s(`consent.${kind}`)}
          </List.Item>
        ))}
      </List>
      <Card className="m-section" title={s('pd.documents')} data-testid="privacy-documents">
        <div className="pv-muted">
          {child.policies_accepted && child.accepted_at ? s('pd.accepted_at', { at: clock.dateTime(child.accepted_at) }) : s('pd.not_accepted')}
        </div>
        <div className="pv-row">
          <Link to={PHONE_POLICY_PATHS.privacy} className="pv-inline-link">
            {s('doc.privacy')}
          </Link>
          <Link to={PHONE_POLICY_PATHS.children} className="pv-inline-link">
            {s('doc.children')}
          </Link>
        </div>
        <Button block fill="outline" color="danger" onClick={() => void withdrawDocuments()} data-testid="privacy-withdraw-documents">
          {s('pd.withdraw_documents')}
        </Button>
      </Card>
      <ChildData child={child} />
      <AccessLog child={child} />
    </>
  );
}

/** Download, correction, deletion. */
function ChildData({ child }: { child: ChildConsent }) {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  const [correcting, setCorrecting] = useState(false);
  const [text, setText] = useState('');
  const [exporting, setExporting] = useState(false);
  const ask = useAction('privacyRequest', {
    success: (r) => s('pd.requested', { day: clock.day(r.due_at) }),
    invalidates: ['myPrivacyRequests'],
    onDone: () => {
      setCorrecting(false);
      setText('');
    },
  });
  const request = (v: { kind: PrivacyRequestKind; body: string }) => void ask.run({ student_id: child.student_id, ...v });
  const exportAll = async () => {
    setExporting(true);
    try {
      await download('childDataExport', { student_id: child.student_id }, s('pd.export_name', { name: child.name }));
    } catch {
      // the request wrapper has said why
    } finally {
      setExporting(false);
    }
  };
  const askDeletion = async () => {
    const ok = await Dialog.confirm({
      content: s('pd.deletion_confirm', { name: child.name, days: PRIVACY_DEFAULTS.requestDueDays }),
      confirmText: s('pd.deletion_ok'),
      cancelText: s('pd.cancel'),
    });
    if (ok) request({ kind: 'deletion', body: '' });
  };
  const sendCorrection = () => {
    if (!text.trim()) {
      feedback().message.error(s('pd.correction_required'));
      return;
    }
    request({ kind: 'correction', body: text.trim() });
  };
  return (
    <>
      <List className="m-section" header={s('pd.data')} data-testid="privacy-data">
        <List.Item
          description={inWechat(userAgent()) ? `${s('pd.export_hint')} ${s('pd.export_wechat')}` : s('pd.export_hint')}
          onClick={exporting ? undefined : () => void exportAll()}
          data-testid="privacy-export"
        >
          {s('pd.export')}
          {exporting && <span className="pv-muted"> …</span>}
        </List.Item>
        <List.Item description={s('pd.correction_hint')} onClick={() => setCorrecting(true)} data-testid="privacy-correction">
          {s('pd.correction')}
        </List.Item>
        <List.Item description={s('pd.deletion_hint')} onClick={() => void askDeletion()} data-testid="privacy-deletion">
          <span style={{ color: 'var(--adm-color-danger)' }}>{s('pd.deletion')}</span>
        </List.Item>
      </List>
      <Popup
        visible={correcting}
        onMaskClick={() => setCorrecting(false)}
        onClose={() => setCorrecting(false)}
        bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12 }}
      >
        <div className="pv-sheet" data-testid="correction-sheet">
          <div className="pv-sheet-title">
            {s('pd.correction')} · {child.name}
          </div>
          <div className="pv-textarea">
            <TextArea
              placeholder={s('pd.correction_placeholder')}
              value={text}
              onChange={setText}
              maxLength={500}
              rows={4}
              showCount
              data-testid="correction-text"
            />
          </div>
          <Button block color="primary" size="large" loading={ask.busy} onClick={sendCorrection} data-testid="correction-submit">
            {s('pd.submit')}
          </Button>
          <Button block size="large" onClick={() => setCorrecting(false)}>
            {s('pd.cancel')}
          </Button>
        </div>
      </Popup>
    </>
  );
}

/** Who read or exported the child's data: newest first, a page at a time as the list's end comes into view. */
function AccessLog({ child }: { child: ChildConsent }) {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  const q = useInfiniteQuery({
    queryKey: queryKey('childAccessLog', { student_id: child.student_id, limit: LOG_PAGE }),
    queryFn: ({ pageParam }) => get('childAccessLog', { student_id: child.student_id, page: pageParam, limit: LOG_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  const rows = q.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <List className="m-section" header={s('pd.log')} data-testid="privacy-log">
      <div className="pv-hint">{s('pd.log_hint', { name: child.name })}</div>
      {q.isPending ? (
        <PhoneLoading rows={3} />
      ) : !q.data ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : !rows.length ? (
        <PhoneEmpty description={s('pd.log_empty')} />
      ) : (
        <>
          {rows.map((r) => (
            <List.Item
              key={r.id}
              data-testid="privacy-log-row"
              description={
                <>
                  <div className="pv-log-what">
                    {r.what.map((w) => (
                      <Tag key={w} color="primary" fill="outline">
                        {s(`what.${w}`)}
                      </Tag>
                    ))}
                    {r.student_count > 1 && <span className="pv-muted">{s('log.many', { n: r.student_count })}</span>}
                  </div>
                  <div>{clock.dateTime(r.created_at)}</div>
                </>
              }
            >
              {r.actor_name || '-'} <span className="pv-muted">· {roleLabel(s, r.actor_role)}</span>
            </List.Item>
          ))}
          <MorePages query={q} />
        </>
      )}
    </List>
  );
}

/** The guardian's correction and deletion requests, for all their children: state, due day, the school's answer. */
function Requests() {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  const q = useInfiniteQuery({
    queryKey: queryKey('myPrivacyRequests'),
    queryFn: ({ pageParam }) => get('myPrivacyRequests', { page: pageParam, limit: REQUEST_PAGE }),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
  const rows = q.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <List className="m-section" header={s('pd.requests')} data-testid="privacy-requests">
      {q.isPending ? (
        <PhoneLoading rows={2} />
      ) : !q.data ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : !rows.length ? (
        <PhoneEmpty description={s('pd.requests_empty')} />
      ) : (
        <>
          {rows.map((r) => (
            <List.Item
              key={r.id}
              data-testid={`privacy-request-${r.kind}`}
              extra={
                <Tag color={STATUS_COLOR[r.status]} fill="outline">
                  {s(`pd.status.${r.status}`)}
                </Tag>
              }
              description={
                <>
                  {r.body && <div className="pv-request-body">{r.body}</div>}
                  <div>
                    {s('pd.sent_at', { at: clock.dateTime(r.created_at) })}
                    {r.status === 'open' && (
                      <>
                        {' · '}
                        {r.overdue ? (
                          <span style={{ color: 'var(--adm-color-danger)' }}>{s('pd.overdue')}</span>
                        ) : (
                          s('pd.due', { day: clock.day(r.due_at) })
                        )}
                      </>
                    )}
                  </div>
                  {r.result_note && <div>{s('pd.result', { note: r.result_note })}</div>}
                </>
              }
            >
              {s(`pd.kind.${r.kind}`)} · {r.student_name}
            </List.Item>
          ))}
          <MorePages query={q} />
        </>
      )}
    </List>
  );
}
