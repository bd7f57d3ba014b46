import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Identity, Role } from '@wantuo/shared';
import { act } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { Filings } from '../../layouts/public-layout';
import { child, consents, fakeServer, policies, type Reply, signedIn } from '../../phone/privacy/fake-server';
import { useSession } from '../../stores/session';
import { mount } from '../../test-utils';
import DesktopConsent from './desktop-consent';
import PublicPolicy from './public-policy';

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const until = async (what: () => unknown) => {
  for (let i = 0; i < 100 && !what(); i++) await flush();
  expect(what()).toBeTruthy();
};
const $ = (sel: string) => document.querySelector<HTMLElement>(sel);

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

beforeEach(() => {
  signedIn();
});

async function open(at: string, answers: Record<string, (input: Record<string, unknown>) => Reply>) {
  const server = fakeServer(answers);
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path="/privacy" element={<PublicPolicy />} />
          <Route path="/children_privacy" element={<PublicPolicy />} />
          <Route path="/parent_consent" element={<DesktopConsent />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return server;
}

describe('the public footer’s filings', () => {
  it('links the ICP number to MIIT and the public-security number to its lookup, in new tabs', async () => {
    await mount(<Filings icp="京ICP备12345678号-1" police="京公网安备11010502030143号" />);
    const icp = $('[data-testid="icp-link"]') as HTMLAnchorElement;
    expect(icp.href).toBe('https://beian.miit.gov.cn/');
    expect([icp.target, icp.rel]).toEqual(['_blank', 'noopener noreferrer']);
    const police = $('[data-testid="police-filing-link"]') as HTMLAnchorElement;
    expect(police.href).toBe('https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143');
    expect(police.textContent).toBe('京公网安备11010502030143号');
    expect(police.rel).toContain('noopener');
  });

  it('shows nothing that is not configured (an older configuration has no public-security number)', async () => {
    const el = await mount(<Filings icp="京ICP备12345678号-1" police={undefined} />);
    expect($('[data-testid="police-filing-link"]')).toBeNull();
    expect(el.textContent).toBe('京ICP备12345678号-1');
    const none = await mount(<Filings icp={null} police={null} />);
    expect(none.innerHTML).toBe('');
  });
});

describe('the documents’ public pages', () => {
  it('/privacy and /children_privacy each show their document, with the other linked; ?school= names the school', async () => {
    const server = await open('/children_privacy?school=4', { privacyPolicies: () => ({ data: policies(2, 3) }) });
    await until(() => $('[data-testid="policy-children"]'));
    expect($('[data-testid="policy-children"] h2')?.textContent).toBe('儿童个人信息保护规则');
    expect($('[data-testid="policy-children"]')?.textContent).toContain('第 3 版');
    expect(($('[data-testid="policy-children"] a') as HTMLAnchorElement).getAttribute('href')).toBe('/privacy?school=4');
    expect(server.of('privacyPolicies')).toEqual([{ school_id: 4 }]);
  });
});

describe('the parent console’s consent screen', () => {
  beforeEach(() => {
    useSession.setState({
      token: 't',
      user: { id: 11, role: Role.Parent, nickname: '王妈妈', avatar_text: '王', school_id: 1 },
      identity: Identity.Teacher,
    });
  });

  it('accepts the versions it showed, then the health switch chosen, then goes on to the page wanted', async () => {
    const kids = [child(7, '王小明')];
    const done = consents([{ ...kids[0], policies_accepted: true }], 4, 6);
    const server = await open('/parent_consent?redirect=%2Fparent_meals', {
      privacyPolicies: () => ({ data: policies(4, 6) }),
      myConsents: () => ({ data: consents(kids, 4, 6) }),
      acceptPolicies: () => ({ data: done }),
      setConsent: () => ({ data: done }),
    });
    await until(() => $('[data-testid="consent-accept"]'));
    expect($('[data-testid="consent-child-7"]')?.textContent).toContain('王小明');
    await act(async () => $('[data-testid="consent-health-7"]')!.click());
    await act(async () => $('[data-testid="consent-accept"]')!.click());
    await until(() => $('[data-testid="where"]'));
    expect(server.of('acceptPolicies')).toEqual([{ privacy_version: 4, children_version: 6 }]);
    expect(server.of('setConsent')).toEqual([{ student_id: 7, kind: 'health', granted: true }]);
    expect($('[data-testid="where"]')?.textContent).toBe('/parent_meals');
  });
});
