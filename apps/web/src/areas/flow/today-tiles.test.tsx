import type { TeacherTodayTask } from '@wantuo/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usePreferences } from '../../stores/preferences';
import { mount } from '../../test-utils';
import { TodayTiles } from './today-tiles';

const none = { to_pick_up: [], picked_up: [], in_centre: [], to_feed: [], to_tutor: [], tutoring: [], left: [], on_leave: [] };
const day: TeacherTodayTask = {
  day: '2026-12-07',
  classes: [{ id: 1, name: '阳光一班', head_teacher: true }],
  total: 10,
  states: { expected: 4, picked_up: 1, in_centre: 2, left: 1, on_leave: 2 },
  to_pick_up: 60,
  to_feed: 1,
  to_tutor: 0,
  tutoring: 1,
  to_hand_over: 2,
  students: {
    ...none,
    to_pick_up: [
      { id: 3, name: '陈小雨', class_name: '阳光一班' },
      { id: 4, name: '刘诗琪', class_name: '阳光一班' },
    ],
    in_centre: [
      { id: 5, name: '王子涵', class_name: '阳光一班' },
      { id: 6, name: '陈小阳', class_name: '阳光一班' },
    ],
  },
  clock: null,
};

const tile = (el: Element, k: string) => el.querySelector(`[data-testid="today-tile-${k}"]`) as HTMLButtonElement;
const panel = (k: string) => document.querySelector(`[data-testid="today-students-${k}"]`);

beforeEach(() => usePreferences.setState({ lang: 'zh-CN' }));
afterEach(() => {
  document.body.innerHTML = '';
});

describe('TodayTiles (the adviser home’s counts and who is behind them)', { timeout: 30_000 }, () => {
  it('shows each count; a tap lists its students with their class, a second tap closes it', async () => {
    const el = await mount(<TodayTiles d={day} />);
    expect(tile(el, 'in_centre').textContent).toContain('2');
    expect(panel('in_centre')).toBeNull();
    await act(async () => tile(el, 'in_centre').click());
    expect(tile(el, 'in_centre').getAttribute('aria-expanded')).toBe('true');
    const p = panel('in_centre')!;
    expect(p.textContent).toContain('在园：2 人');
    const rows = [...p.querySelectorAll('[data-testid="today-student"]')].map((r) => r.textContent);
    expect(rows).toEqual(['王子涵阳光一班', '陈小阳阳光一班']);
    expect(p.querySelector('[data-testid="today-students-first"]')).toBeNull();
    await act(async () => tile(el, 'in_centre').click());
    expect(panel('in_centre')).toBeNull();
  });

  it('says when a count names only its first students, and when nobody is behind it', async () => {
    const el = await mount(<TodayTiles d={day} />);
    await act(async () => tile(el, 'to_pick_up').click());
    expect(panel('to_pick_up')?.querySelector('[data-testid="today-students-first"]')?.textContent).toBe('仅列出前 2 人');
    await act(async () => tile(el, 'to_tutor').click());
    expect(panel('to_pick_up')).toBeNull();
    expect(panel('to_tutor')?.textContent).toContain('暂无学生');
  });

  it('speaks English when asked', async () => {
    usePreferences.setState({ lang: 'en' });
    const el = await mount(<TodayTiles d={day} />);
    await act(async () => tile(el, 'to_pick_up').click());
    expect(panel('to_pick_up')?.textContent).toContain('To pick up: 60');
  });
});
