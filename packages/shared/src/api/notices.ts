import { GET, POST } from './define';
import { AddInformResult, NoticeDetail, NoticeInfo, NoticePage, ParentNoticeList, RemindInformResult } from '../answers/notices';
import { AddInformInput, AdminInformListQuery, InformIdInput, InformInfoQuery, InformListQuery, ParentInformListQuery } from '../schemas/notices';

/** The actions of module `notices` (docs/modules/notices.md). */
export const noticesActions = [
  POST('teacherAddInform', AddInformInput, AddInformResult),
  GET('teacherInformList', InformListQuery, NoticePage),
  GET('headTeacherInformList', InformListQuery, NoticePage),
  GET('headTeacherInformInfo', InformInfoQuery, NoticeInfo),
  GET('parentInformList', ParentInformListQuery, ParentNoticeList),
  POST('readInform', InformIdInput, NoticeDetail),
  POST('remindInform', InformIdInput, RemindInformResult),
  GET('adminInformList', AdminInformListQuery, NoticePage),
  GET('adminInformInfo', InformInfoQuery, NoticeInfo),
] as const;
