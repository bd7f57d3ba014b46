import { describe, expect, it } from 'vitest';
import { choiceChanges, initialChoices } from './consent-model';
import { afterConsent, consentPathFor } from './consent-paths';
import { policeFilingUrl } from './links';

describe('where the consent screen sends the guardian afterwards', () => {
  it.each([
    [null, true, '/m/parent'],
    ['/m/parent_report?student=3', true, '/m/parent_report?student=3'],
    ['/m/parent_consent?redirect=/m/parent', true, '/m/parent'],
    ['https://evil.example/', true, '/m/parent'],
    ['//evil.example/m/parent', true, '/m/parent'],
    ['/\\evil.example', true, '/m/parent'],
    ['/parent_meals', true, '/m/parent'],
    ['/parent_meals', false, '/parent_meals'],
    ['/m/parent', false, '/parent'],
    ['/parent_consent', false, '/parent'],
    [null, false, '/parent'],
  ])('%s (phone %s) → %s', (redirect, phone, to) => {
    expect(afterConsent(redirect, phone)).toBe(to);
  });

  it('the consent screen remembers where the guardian was', () => {
    expect(consentPathFor('/m/parent_report?student=3', true)).toBe('/m/parent_consent?redirect=%2Fm%2Fparent_report%3Fstudent%3D3');
    expect(consentPathFor('/parent', false)).toBe('/parent_consent?redirect=%2Fparent');
    expect(consentPathFor('/m/parent_consent?redirect=%2Fm', true)).toBe('/m/parent_consent?redirect=%2Fm');
  });
});

describe('the switches of the consent screen', () => {
  const kids = [
    { student_id: 1, name: 'a', policies_accepted: false, accepted_at: null, photos: null, health: true },
    { student_id: 2, name: 'b', policies_accepted: false, accepted_at: null, photos: false, health: null },
  ];
  it('start as the guardians decided (nobody yet: off) and send only what the guardian changed', () => {
    const start = initialChoices(kids);
    expect(start).toEqual({ 1: { photos: false, health: true }, 2: { photos: false, health: false } });
    expect(choiceChanges(kids, start)).toEqual([]);
    expect(choiceChanges(kids, { ...start, 1: { photos: true, health: false }, 2: { photos: false, health: true } })).toEqual([
      { student_id: 1, kind: 'photos', granted: true },
      { student_id: 1, kind: 'health', granted: false },
      { student_id: 2, kind: 'health', granted: true },
    ]);
  });
});

describe('the footer’s public-security filing link', () => {
  it.each([
    ['京公网安备11010502030143号', 'https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143'],
    ['沪公网安备 31010402001234 号', 'https://beian.mps.gov.cn/#/query/webSearch?code=31010402001234'],
    ['待备案', null],
    ['', null],
    [null, null],
  ])('%s → %s', (filing, url) => {
    expect(policeFilingUrl(filing)).toBe(url);
  });
});
