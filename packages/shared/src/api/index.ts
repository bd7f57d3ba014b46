import type { z } from 'zod';
import type { Declaration } from './define';
import { siteActions } from './site';
import { authActions } from './auth';
import { schoolActions } from './school';
import { staffActions } from './staff';
import { studentsActions } from './students';
import { careActions } from './care';
import { teachingActions } from './teaching';
import { tutoringActions } from './tutoring';
import { timetableActions } from './timetable';
import { flowActions } from './flow';
import { leaveActions } from './leave';
import { noticesActions } from './notices';
import { mealsActions } from './meals';
import { pointsActions } from './points';
import { examsActions } from './exams';
import { homeworkActions } from './homework';
import { contractsActions } from './contracts';
import { coursewareActions } from './courseware';
import { storeActions } from './store';
import { applicationsActions } from './applications';
import { homeActions } from './home';
import { smsActions } from './sms';
import { wechatActions } from './wechat';
import { pickupActions } from './pickup';
import { reportsActions } from './reports';
import { privacyActions } from './privacy';
import { conversationsActions } from './conversations';
import { receiptsActions } from './receipts';

export * from './define';

/** Every action the API serves, declared once (method, name, input and answer schemas); one file per module. */
export const DECLARED = [
  ...siteActions,
  ...authActions,
  ...schoolActions,
  ...staffActions,
  ...studentsActions,
  ...careActions,
  ...teachingActions,
  ...tutoringActions,
  ...timetableActions,
  ...flowActions,
  ...leaveActions,
  ...noticesActions,
  ...mealsActions,
  ...pointsActions,
  ...examsActions,
  ...homeworkActions,
  ...contractsActions,
  ...coursewareActions,
  ...storeActions,
  ...applicationsActions,
  ...homeActions,
  ...smsActions,
  ...wechatActions,
  ...pickupActions,
  ...reportsActions,
  ...privacyActions,
  ...conversationsActions,
  ...receiptsActions,
] as const;

type Declared = (typeof DECLARED)[number];
/** The GET actions by name. */
export type GetActions = { [D in Declared as D['method'] extends 'GET' ? D['action'] : never]: D };
/** The POST actions by name. */
export type PostActions = { [D in Declared as D['method'] extends 'POST' ? D['action'] : never]: D };
export type GetAction = keyof GetActions;
export type PostAction = keyof PostActions;

type InputOf<D> = D extends { input: infer I } ? (I extends z.ZodType ? z.input<I> : undefined) : never;
type AnswerOf<D> = D extends { answer: infer O } ? (O extends z.ZodType ? z.output<O> : never) : never;
type ParsedOf<D> = D extends { input: infer I } ? (I extends z.ZodType ? z.output<I> : null) : never;

/** What the web sends to a GET action (its query), and what it gets back in `data`. */
export type GetInput<K extends GetAction> = InputOf<GetActions[K]>;
export type GetAnswer<K extends GetAction> = AnswerOf<GetActions[K]>;
/** What the web sends to a POST action (its body), and what it gets back in `data`. */
export type PostInput<K extends PostAction> = InputOf<PostActions[K]>;
export type PostAnswer<K extends PostAction> = AnswerOf<PostActions[K]>;
/** What the API's handler of an action receives as its input once validated (defaults applied); null: it has none. */
export type GetParsed<K extends GetAction> = ParsedOf<GetActions[K]>;
export type PostParsed<K extends PostAction> = ParsedOf<PostActions[K]>;

/** The declaration of a method and name, or undefined. */
export function declarationOf(method: string, action: string): Declaration | undefined {
  return byKey.get(`${method.toUpperCase()} ${action}`);
}
const byKey = new Map<string, Declaration>(DECLARED.map((d) => [`${d.method} ${d.action}`, d as Declaration]));
