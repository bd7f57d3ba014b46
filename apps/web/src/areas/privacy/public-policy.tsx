import { Card } from 'antd';
import type { PolicyKind } from '@wantuo/shared';
import { Link, useLocation, useSearchParams } from 'react-router';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { usePolicies } from './consent-paths';
import { POLICY_PATHS } from './links';
import { PolicyText } from './policy-text';
import { privacyStrings } from './strings';

/** The document a path shows: /children_privacy the children's rules, /privacy the privacy policy. */
export const kindAt = (pathname: string): PolicyKind => (pathname.replace(/\/+$/, '').endsWith('children_privacy') ? 'children' : 'privacy');

/**
 * /privacy and /children_privacy (the public site, issue 37): the current document in the reader's language, with the
 * other one linked. `?school=<id>` names the school for a visitor who is not signed in (a signed-in user's is theirs).
 */
export default function PublicPolicy() {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  const kind = kindAt(useLocation().pathname);
  const [params] = useSearchParams();
  const school = Number(params.get('school'));
  const q = usePolicies(Number.isInteger(school) && school > 0 ? school : undefined);
  if (q.isPending) return <Loading />;
  if (!q.data) return <LoadError message={q.error instanceof Error ? q.error.message : undefined} onRetry={() => void q.refetch()} />;
  const doc = q.data[kind];
  const other: PolicyKind = kind === 'privacy' ? 'children' : 'privacy';
  const search = params.get('school') ? `?school=${encodeURIComponent(params.get('school')!)}` : '';
  return (
    <Card data-testid={`policy-${kind}`} style={{ maxWidth: 860, margin: '0 auto' }}>
      <div className="policy-meta">{s('doc.version', { n: doc.version, day: clock.day(doc.published_at) })}</div>
      {doc.body.trim() ? <PolicyText body={doc.body} /> : <EmptyState description={s('doc.empty')} />}
      <p className="policy-meta" style={{ marginTop: 24 }}>
        {s('doc.read_other')} <Link to={`${POLICY_PATHS[other]}${search}`}>{q.data[other].title}</Link>
      </p>
    </Card>
  );
}
