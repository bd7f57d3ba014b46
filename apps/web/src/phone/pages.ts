import type { ComponentType } from 'react';

type Page = () => Promise<{ default: ComponentType }>;

/**
 * Each phone page's code, loaded when its route is first opened (or by boot.ts, with the shell, for the first one): the
 * one list of the phone's screens, whose keys the routes name.
 */
const pages = {
  teacherToday: () => import('./teacher/today'),
  teacherShuttle: () => import('./teacher/shuttle'),
  teacherTutor: () => import('./teacher/tutor'),
  teacherComments: () => import('./teacher/comments'),
  teacherPickup: () => import('./teacher/pickup-scan'),
  teacherMe: () => import('./me/me'),
  teacherChats: () => import('./conversations/teacher-chats'),
  teacherChat: () => import('./conversations/teacher-chat'),
  parentHome: () => import('./parent/home'),
  parentReport: () => import('./parent/report'),
  parentPickup: () => import('./parent/pickup'),
  parentContracts: () => import('./parent/contracts'),
  parentMeals: () => import('./parent/meals'),
  parentHomework: () => import('./parent/homework'),
  parentNotices: () => import('./parent/notices'),
  parentScores: () => import('./parent/scores'),
  parentPoints: () => import('./parent/points'),
  parentMessages: () => import('./parent/messages'),
  parentChat: () => import('./conversations/parent-chat'),
  parentMe: () => import('./me/me'),
  settings: () => import('./me/settings'),
  publicPickup: () => import('./pickup/public-pickup'),
  parentConsent: () => import('./privacy/consent'),
  parentPrivacy: () => import('./privacy/privacy'),
  privacyPolicy: () => import('./privacy/policy'),
} satisfies Record<string, Page>;

/** A phone screen, by key (the routes of route-table.ts name theirs). */
export type PhonePageKey = keyof typeof pages;

export const PHONE_PAGES: Record<PhonePageKey, Page> = pages;
