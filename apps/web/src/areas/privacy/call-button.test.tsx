import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Code, Identity, Role, type StudentDetail } from '@wantuo/shared';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, feedbackSpies, signedIn } from '../../phone/privacy/fake-server';
import { mount } from '../../test-utils';

const tel = vi.hoisted(() => ({ openTel: vi.fn(), telHref: (m: string) => `tel:${m.replace(/[^\d+]/g, '')}` }));
vi.mock('../../lib/tel', () => tel);

const { StudentSummary } = await import('../students/student-common');

// the write hook (useAction) reads the query client the layouts provide
const withQueries = (node: React.ReactNode) => <QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>;
const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
const click = (el: HTMLElement) => act(async () => el.click());

const detail = (id: number, over: Partial<StudentDetail> = {}): StudentDetail => ({
  id,
  name: '王小明',
  gender: 1,
  birthday: '2018-03-02',
  day_school: '实验小学',
  grade: '三年级',
  class_name: '2班',
  photo_url: null,
  allergies: null,
  needs_shuttle: false,
  needs_dinner: true,
  tutoring_type: null,
  status: 1,
  archived_at: null,
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  care_class: null,
  guardians: [
    { user_id: 11, name: '王妈妈', mobile: '138****0001', relation: '母亲', is_primary: true },
    { user_id: 12, name: '王爸爸', mobile: '13900000002', relation: '父亲', is_primary: false },
  ],
  notes: null,
  pickup_people: [{ id: 21, name: '王奶奶', relation: '奶奶', mobile: '137****0003', photo_url: null }],
  updated_at: '2026-01-01T00:00:00.000Z',
  guardians_version: 1,
  photo_consent: null,
  health_consent: null,
  ...over,
});

let fb: ReturnType<typeof feedbackSpies>;
beforeEach(() => {
  tel.openTel.mockClear();
  fb = signedIn({ id: 5, role: Role.Teacher, nickname: '李老师', avatar_text: '李', school_id: 1 }, Identity.Teacher);
});

describe('拨打 in the teacher console’s student view (issue 37)', { timeout: 30_000 }, () => {
  it('a masked guardian or pick-up person: callGuardian, then the dialler with the number it answers; a whole one: a tel: link', async () => {
    const server = fakeServer({
      callGuardian: (input) => ({ data: input.user_id ? { mobile: '13800000001', name: '王妈妈' } : { mobile: '13700000003', name: '王奶奶' } }),
    });
    await mount(withQueries(<StudentSummary s={detail(7)} />));
    const [mother, father] = $$('[data-testid="summary-guardian"]');
    expect(mother.textContent).toContain('王妈妈（母亲）138****0001');
    // the whole number: a plain link, nothing asked
    const link = father.querySelector<HTMLAnchorElement>('a[data-testid="call-link"]')!;
    expect(link.getAttribute('href')).toBe('tel:13900000002');
    expect(link.getAttribute('aria-label')).toBe('拨打 王爸爸');

    await click(mother.querySelector<HTMLElement>('[data-testid="call-button"]')!);
    await vi.waitFor(() => expect(tel.openTel).toHaveBeenCalledWith('tel:13800000001'));
    expect(server.of('callGuardian')).toEqual([{ student_id: 7, user_id: 11 }]);

    await click($$('[data-testid="summary-pickup"]')[0].querySelector<HTMLElement>('[data-testid="call-button"]')!);
    await vi.waitFor(() => expect(tel.openTel).toHaveBeenCalledWith('tel:13700000003'));
    expect(server.of('callGuardian')[1]).toEqual({ student_id: 7, pickup_person_id: 21 });
  });

  it('a refused call is shown by the request wrapper; the dialler stays closed', async () => {
    fakeServer({ callGuardian: () => ({ code: Code.Error, msg: '未找到该学生' }) });
    await mount(withQueries(<StudentSummary s={detail(8)} />));
    await click($$('[data-testid="summary-guardian"]')[0].querySelector<HTMLElement>('[data-testid="call-button"]')!);
    await vi.waitFor(() => expect(fb.message.error).toHaveBeenCalled());
    expect(tel.openTel).not.toHaveBeenCalled();
  });
});
