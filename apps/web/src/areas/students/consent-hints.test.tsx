import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Identity, Role, type StudentInfo } from '@wantuo/shared';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, signedIn } from '../../phone/privacy/fake-server';
import { mount, unmountAll } from '../../test-utils';

const { default: StudentAdd } = await import('./student-add');
const { default: StudentEdit } = await import('./student-edit');

const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const waitFor = <T,>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });

const info = (over: Partial<StudentInfo> = {}): StudentInfo => ({
  id: 7,
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
  guardians: [{ user_id: 11, name: '王妈妈', mobile: '13800000001', relation: '母亲', is_primary: true }],
  notes: null,
  pickup_people: [],
  updated_at: '2026-01-01T00:00:00.000Z',
  guardians_version: 1,
  photo_consent: null,
  health_consent: null,
  contracts: [],
  contracts_total: 0,
  points_balance: 0,
  teaching_classes: [],
  ...over,
});

beforeEach(() => {
  signedIn({ id: 1, role: Role.Admin, nickname: '校长', avatar_text: '校', school_id: 1 }, Identity.Principal);
});

async function edit(student: StudentInfo) {
  fakeServer({ studentInfo: () => ({ data: student }), studentGuardianLog: () => ({ data: { list: [], total: 0, page: 1, limit: 10 } }) });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/principal_educationals_student?id=${student.id}`]}>
        <StudentEdit />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await waitFor(() => expect($('[data-testid="health-consent-hint"]')).not.toBeNull());
}

describe('the student forms say when health notes and photos need the guardians’ consent (issue 37)', { timeout: 30_000 }, () => {
  it('adding: the rule itself under the allergies and the photo (a new child has no consent yet)', async () => {
    await mount(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <StudentAdd />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect($('[data-testid="health-consent-hint"]')!.textContent).toBe('家长未同意收集健康信息时无法保存');
    expect($('[data-testid="photo-consent-hint"]')!.textContent).toBe('家长未同意使用照片时无法保存');
  });

  it('editing: what the guardians decided, from the student’s answer', async () => {
    await edit(info({ health_consent: null, photo_consent: false }));
    expect($('[data-testid="health-consent-hint"]')!.textContent).toBe('家长尚未同意收集健康信息，过敏信息暂无法保存');
    expect($('[data-testid="photo-consent-hint"]')!.textContent).toBe('家长未同意使用照片，照片无法保存');
    await unmountAll();
    document.body.innerHTML = '';
    await edit(info({ health_consent: true, photo_consent: true }));
    expect($('[data-testid="health-consent-hint"]')!.textContent).toBe('家长已同意保存健康信息');
    expect($('[data-testid="photo-consent-hint"]')!.textContent).toBe('家长已同意使用照片');
  });

  it('an answer without the consents: the rule itself', async () => {
    const { photo_consent: _p, health_consent: _h, ...older } = info();
    await edit(older as StudentInfo);
    expect($('[data-testid="health-consent-hint"]')!.textContent).toBe('家长未同意收集健康信息时无法保存');
  });
});
