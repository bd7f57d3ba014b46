import Card from 'antd-mobile/es/components/card';
import type { PolicyKind } from '@wantuo/shared';
import { Link, useLocation, useSearchParams } from 'react-router';
import { usePolicies } from '../../areas/privacy/consent-paths';
import { PHONE_POLICY_PATHS } from '../../areas/privacy/links';
import { PolicyText } from '../../areas/privacy/policy-text';
import { privacyStrings } from '../../areas/privacy/strings';
import { useSchoolClock } from '../../lib/school-time';
import { PhonePage, QueryView } from '../ui/page';
import './privacy.css';

/** The document a path shows: /m/children_privacy the children's rules, /m/privacy the privacy policy. */
export const kindAt = (pathname: string): PolicyKind => (pathname.replace(/\/+$/, '').endsWith('children_privacy') ? 'children' : 'privacy');

/**
 * /m/privacy and /m/children_privacy: the current document, public (from the sign-in page and 我的), with a link to the
 * other one. `?school=<id>` names the school for a visitor who is not signed in.
 */
export default function PhonePolicy() {
  const s = privacyStrings.use();
  const clock = useSchoolClock();
  const kind = kindAt(useLocation().pathname);
  const [params] = useSearchParams();
  const school = Number(params.get('school'));
  const q = usePolicies(Number.isInteger(school) && school > 0 ? school : undefined);
  const other: PolicyKind = kind === 'privacy' ? 'children' : 'privacy';
  const search = params.get('school') ? `?school=${encodeURIComponent(params.get('school')!)}` : '';
  return (
    <PhonePage title={s(`doc.${kind}`)} onRefresh={() => q.refetch()}>
      <QueryView query={q} rows={10} isEmpty={(d) => !d[kind].body.trim()} empty={s('doc.empty')}>
        {(d) => (
          <>
            <Card className="m-section" data-testid={`policy-${kind}`}>
              <div className="policy-meta">{s('doc.version', { n: d[kind].version, day: clock.day(d[kind].published_at) })}</div>
              <PolicyText body={d[kind].body} />
            </Card>
            <div className="pv-links">
              <span className="pv-muted" style={{ alignSelf: 'center' }}>
                {s('doc.read_other')}
              </span>
              <Link to={`${PHONE_POLICY_PATHS[other]}${search}`}>{d[other].title}</Link>
            </div>
          </>
        )}
      </QueryView>
    </PhonePage>
  );
}
