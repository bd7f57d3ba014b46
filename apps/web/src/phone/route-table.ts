import { Role, type GetAction } from '@wantuo/shared';
import type { ComponentType } from 'react';
import type { Bilingual } from '../i18n/messages';

/** The tabs of the phone app's bottom bar: the teacher's (今日 / 接送 / 辅导 / 我的) and the parent's (今日 / 缴费 / 消息 / 我的). */
export type TabKey = 'teacher_today' | 'teacher_shuttle' | 'teacher_tutor' | 'teacher_me' | 'parent' | 'parent_pay' | 'parent_messages' | 'parent_me';

/** A phone screen's code, loaded when its route is first opened (or by boot.ts, with the shell, for the first one). */
export type PhonePage = () => Promise<{ default: ComponentType }>;

/**
 * The phone app's routes: all under /m (its own entry, m.html), each declared once here with its screen (lazily
 * imported), title, access and tab; the phone's router and boot.ts are derived from here. The consoles read it too
 * (after sign-in, the phone offer), so their build also emits the phone screens' chunks, never loaded by them.
 */
export interface PhoneRoute {
  /** under /m */
  path: string;
  /** the screen: its code, imported lazily (one chunk per screen) */
  page: PhonePage;
  title: Bilingual;
  /** who may open it; 'all': the public pick-up link (no sign-in) */
  roles: readonly Role[] | 'all';
  /** the tab it belongs to (highlighted in the bottom bar); none: a page without the bar (the public link) */
  tab?: TabKey;
  /** a tab's own page: no back arrow */
  root?: boolean;
  /** the desktop routes this page is the phone twin of: a phone that opens one is offered this page */
  desktop?: readonly string[];
  /** its data, started with the shell before React renders (boot.ts) */
  early?: GetAction;
  /** shown without the bottom bar although signed in (the consent screen: nothing else opens before it) */
  bare?: true;
}

const b = (zh: string, en: string): Bilingual => ({ zh, en });
const STAFF = [Role.Teacher, Role.HeadTeacher] as const;
const PARENT = [Role.Parent] as const;

export const PHONE_PREFIX = '/m';

/**
 * Where the phone app sends the consoles' roles (admin, operator), who have no phone pages: the consoles' entry (spec
 * §2's /principal, the admin's home), whose guard sends an operator on to their own home. A path, not the consoles'
 * route table: that imports every console screen, which the phone's entry must never reach.
 */
export const CONSOLE_ENTRY = '/principal';

export const PHONE_ROUTES: readonly PhoneRoute[] = [
  // teachers and head teachers
  {
    path: '/m/teacher_today',
    page: () => import('./teacher/today'),
    title: b('今日', 'Today'),
    roles: STAFF,
    tab: 'teacher_today',
    root: true,
    desktop: ['/teacher_today', '/AStudentAttendance'],
    early: 'flowBoard',
  },
  {
    path: '/m/teacher_shuttle',
    page: () => import('./teacher/shuttle'),
    title: b('接送', 'Pick-up'),
    roles: STAFF,
    tab: 'teacher_shuttle',
    root: true,
    desktop: ['/teacher_shuttle', '/AStudentTransport'],
  },
  {
    path: '/m/teacher_tutor',
    page: () => import('./teacher/tutor'),
    title: b('辅导', 'Tutoring'),
    roles: STAFF,
    tab: 'teacher_tutor',
    root: true,
    desktop: ['/teacher_tutor', '/AMentorStudent'],
  },
  { path: '/m/teacher_me', page: () => import('./me/me'), title: b('我的', 'Me'), roles: STAFF, tab: 'teacher_me', root: true },
  {
    path: '/m/teacher_comments',
    page: () => import('./teacher/comments'),
    title: b('每日评语', 'Daily comments'),
    roles: STAFF,
    tab: 'teacher_today',
    desktop: ['/teacher_comments', '/A_reports'],
  },
  {
    path: '/m/teacher_pickup',
    page: () => import('./teacher/pickup-scan'),
    title: b('扫码放学', 'Scan a pick-up code'),
    roles: STAFF,
    tab: 'teacher_shuttle',
  },
  // family conversations (issue 40): the children's conversations, one of them
  {
    path: '/m/teacher_chats',
    page: () => import('./conversations/teacher-chats'),
    title: b('家长消息', 'Family messages'),
    roles: STAFF,
    tab: 'teacher_today',
    desktop: ['/teacher_chats', '/A_chats'],
  },
  {
    path: '/m/teacher_chat',
    page: () => import('./conversations/teacher-chat'),
    title: b('家长消息', 'Family messages'),
    roles: STAFF,
    tab: 'teacher_today',
  },
  // parents
  {
    path: '/m/parent',
    page: () => import('./parent/home'),
    title: b('今日', 'Today'),
    roles: PARENT,
    tab: 'parent',
    root: true,
    desktop: ['/parent'],
    early: 'parentChildren',
  },
  {
    path: '/m/parent_contracts',
    page: () => import('./parent/contracts'),
    title: b('缴费', 'Pay'),
    roles: PARENT,
    tab: 'parent_pay',
    root: true,
    desktop: ['/parent_contracts'],
  },
  {
    path: '/m/parent_messages',
    page: () => import('./parent/messages'),
    title: b('消息', 'Messages'),
    roles: PARENT,
    tab: 'parent_messages',
    root: true,
    desktop: ['/parent_messages'],
  },
  // family conversations (issue 40): the chosen child's conversation with the school, from 消息
  {
    path: '/m/parent_chat',
    page: () => import('./conversations/parent-chat'),
    title: b('和老师聊天', 'Chat with the teachers'),
    roles: PARENT,
    tab: 'parent_messages',
  },
  { path: '/m/parent_me', page: () => import('./me/me'), title: b('我的', 'Me'), roles: PARENT, tab: 'parent_me', root: true },
  {
    path: '/m/parent_report',
    page: () => import('./parent/report'),
    title: b('每日反馈', 'Daily report'),
    roles: PARENT,
    tab: 'parent',
    desktop: ['/parent_report'],
  },
  {
    path: '/m/parent_pickup',
    page: () => import('./parent/pickup'),
    title: b('接送码', 'Pick-up code'),
    roles: PARENT,
    tab: 'parent',
    desktop: ['/parent_pickup'],
  },
  {
    path: '/m/parent_meals',
    page: () => import('./parent/meals'),
    title: b('晚餐', 'Dinner'),
    roles: PARENT,
    tab: 'parent',
    desktop: ['/parent_meals'],
  },
  {
    path: '/m/parent_homework',
    page: () => import('./parent/homework'),
    title: b('作业', 'Homework'),
    roles: PARENT,
    tab: 'parent',
    desktop: ['/parent_homework'],
  },
  {
    path: '/m/parent_notices',
    page: () => import('./parent/notices'),
    title: b('通知', 'Notices'),
    roles: PARENT,
    tab: 'parent_messages',
    desktop: ['/parent_notices'],
  },
  {
    path: '/m/parent_scores',
    page: () => import('./parent/scores'),
    title: b('成绩', 'Scores'),
    roles: PARENT,
    tab: 'parent_me',
    desktop: ['/parent_scores'],
  },
  {
    path: '/m/parent_points',
    page: () => import('./parent/points'),
    title: b('积分', 'Points'),
    roles: PARENT,
    tab: 'parent_me',
    desktop: ['/parent_points'],
  },
  // both: the account's own settings (password, WeChat binding, language), from 我的
  {
    path: '/m/settings',
    page: () => import('./me/settings'),
    title: b('账号设置', 'Account settings'),
    roles: [...STAFF, ...PARENT],
    desktop: ['/settings'],
  },
  // children's personal information (issue 37): the consent screen every parent page sends to until the guardian has
  // accepted the current documents, 我的 → 隐私与数据, and the documents themselves (public: from sign-in and 我的)
  {
    path: '/m/parent_consent',
    page: () => import('./privacy/consent'),
    title: b('请阅读并同意', 'Please read and accept'),
    roles: PARENT,
    root: true,
    bare: true,
    desktop: ['/parent_consent'],
  },
  { path: '/m/parent_privacy', page: () => import('./privacy/privacy'), title: b('隐私与数据', 'Privacy and data'), roles: PARENT, tab: 'parent_me' },
  { path: '/m/privacy', page: () => import('./privacy/policy'), title: b('隐私政策', 'Privacy policy'), roles: 'all', desktop: ['/privacy'] },
  {
    path: '/m/children_privacy',
    page: () => import('./privacy/policy'),
    title: b('儿童个人信息保护规则', "Children's personal-information rules"),
    roles: 'all',
    desktop: ['/children_privacy'],
  },
  // the link a guardian shares with a pick-up person (no sign-in)
  {
    path: '/m/pickup/:token',
    page: () => import('./pickup/public-pickup'),
    title: b('接送凭证', 'Pick-up pass'),
    roles: 'all',
    desktop: ['/pickup/:token'],
  },
];

/** The bottom bar of each kind of user, in order. */
export const TABS: Record<'staff' | 'parent', ReadonlyArray<{ key: TabKey; path: string; title: Bilingual }>> = {
  staff: [
    { key: 'teacher_today', path: '/m/teacher_today', title: b('今日', 'Today') },
    { key: 'teacher_shuttle', path: '/m/teacher_shuttle', title: b('接送', 'Pick-up') },
    { key: 'teacher_tutor', path: '/m/teacher_tutor', title: b('辅导', 'Tutoring') },
    { key: 'teacher_me', path: '/m/teacher_me', title: b('我的', 'Me') },
  ],
  parent: [
    { key: 'parent', path: '/m/parent', title: b('今日', 'Today') },
    { key: 'parent_pay', path: '/m/parent_contracts', title: b('缴费', 'Pay') },
    { key: 'parent_messages', path: '/m/parent_messages', title: b('消息', 'Messages') },
    { key: 'parent_me', path: '/m/parent_me', title: b('我的', 'Me') },
  ],
};

/** The phone app's home of a role (teachers and head teachers: today; parents: today); none for the consoles' roles. */
export function phoneHomeOf(role: Role | undefined): string | null {
  if (role === Role.Teacher || role === Role.HeadTeacher) return '/m/teacher_today';
  if (role === Role.Parent) return '/m/parent';
  return null;
}

/** `path` (a route pattern, `:name` for a segment) matches `pathname`; answers the segments' values or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const a = pattern.split('/');
  const b2 = pathname.replace(/\/+$/, '').split('/');
  if (a.length !== b2.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) {
      if (!b2[i]) return null;
      params[a[i].slice(1)] = decodeURIComponent(b2[i]);
    } else if (a[i] !== b2[i]) return null;
  }
  return params;
}

/** The phone route at `pathname` (with its segments' values), or null. */
export function phoneRouteAt(pathname: string): { route: PhoneRoute; params: Record<string, string> } | null {
  for (const route of PHONE_ROUTES) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

/**
 * The phone page a desktop location is the twin of, for `role` (null: none, or not this role's): /teacher_today →
 * /m/teacher_today, /pickup/abc → /m/pickup/abc; the query string is kept.
 */
export function phoneTwinOf(pathname: string, search: string, role: Role | undefined): string | null {
  for (const route of PHONE_ROUTES) {
    for (const desk of route.desktop ?? []) {
      const params = matchPath(desk, pathname);
      if (!params) continue;
      if (route.roles !== 'all' && (role === undefined || !route.roles.includes(role))) continue;
      const path = route.path.replace(/:(\w+)/g, (_, n: string) => encodeURIComponent(params[n]));
      return path + search;
    }
  }
  return null;
}

/** The tab a route belongs to for `role`: its own, or the role's 我的 for a page both kinds of user open (settings). */
export function tabOf(route: PhoneRoute, role: Role | undefined): (typeof TABS)['staff'][number] | null {
  const tabs = role === Role.Parent ? TABS.parent : role === Role.Teacher || role === Role.HeadTeacher ? TABS.staff : null;
  if (!tabs) return null;
  if (route.roles === 'all') return null;
  return tabs.find((t) => t.key === route.tab) ?? tabs[tabs.length - 1];
}

/** Whether `role` may open the phone route `route`. */
export function mayOpen(route: PhoneRoute, role: Role | undefined): boolean {
  return route.roles === 'all' || (role !== undefined && route.roles.includes(role));
}
