import { GET, POST, extraOf } from './define';
import { AddInformResult, NoticeDetail, NoticeInfo, NoticePage, ParentNoticeList, RemindInformResult } from '../answers/notices';
import { AddInformInput, AdminInformListQuery, InformIdInput, InformInfoQuery, InformListQuery, ParentInformListQuery } from '../schemas/notices';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('notices');

/** The actions of module `notices` (docs/modules/notices.md). */
export const noticesActions = [
  POST('teacherAddInform', AddInformInput, AddInformResult),
  GET('teacherInformList', InformListQuery, NoticePage),
  GET('headTeacherInformList', InformListQuery, NoticePage),
  GET('headTeacherInformInfo', InformInfoQuery, NoticeInfo),
  GET(
    'parentInformList',
    ParentInformListQuery,
    ParentNoticeList,
    extra(
      ['P'],
      "a guardian's notices (one per notice, however many children it reached), newest first, paged, with when each was read and the unread count",
    ),
  ),
  POST(
    'readInform',
    InformIdInput,
    NoticeDetail,
    extra(
      ['T', 'H', 'P'],
      'a recipient (guardian or staff) opens a notice: answers it with content and attachments and marks it read (the first time only)',
    ),
  ),
  POST(
    'remindInform',
    InformIdInput,
    RemindInformResult,
    extra(
      ['A', 'T', 'H'],
      "the notice's author (the admin: any notice of the school) reminds its unread recipients (guardians by WeChat, else SMS; staff by SMS), at most once per notice per hour (held to 07:00 in the quiet hours)",
    ),
  ),
  GET(
    'adminInformList',
    AdminInformListQuery,
    NoticePage,
    extra(['A'], "the admin's list of every notice of the school with read counts, newest first, paged, filterable by class, keyword, importance"),
  ),
  GET(
    'adminInformInfo',
    InformInfoQuery,
    NoticeInfo,
    extra(['A'], 'the admin reads one notice of the school with its read receipts (as headTeacherInformInfo)'),
  ),
] as const;
