import { GET, POST, Pending } from './define';
import { AddInformInput, AdminInformListQuery, InformIdInput, InformInfoQuery, InformListQuery, ParentInformListQuery } from '../schemas/notices';

/** The actions of module `notices` (docs/modules/notices.md). */
export const noticesActions = [
  POST('teacherAddInform', AddInformInput, Pending),
  GET('teacherInformList', InformListQuery, Pending),
  GET('headTeacherInformList', InformListQuery, Pending),
  GET('headTeacherInformInfo', InformInfoQuery, Pending),
  GET('parentInformList', ParentInformListQuery, Pending),
  POST('readInform', InformIdInput, Pending),
  POST('remindInform', InformIdInput, Pending),
  GET('adminInformList', AdminInformListQuery, Pending),
  GET('adminInformInfo', InformInfoQuery, Pending),
] as const;
