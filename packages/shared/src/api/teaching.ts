import { FileAnswer, GET, POST, extraOf } from './define';
import {
  ChangeSchedulingAnswer,
  CourseSchedulingAnswer,
  DelSchoolCalendarDayAnswer,
  HolidayImportPreview,
  HolidayYearsAnswer,
  ImportHolidaysAnswer,
  RollCallAnswer,
  RollCallCountAnswer,
  Room,
  RoomListAnswer,
  SchoolCalendarAnswer,
  SchoolCalendarDayAnswer,
  SelectableStudentPage,
  TeachManageAnswer,
  TeachingClass,
  TeachingClassMemberPage,
  TeachingClassPage,
  TeachingSession,
  TeachingSessionPage,
  TermSchedulingAnswer,
} from '../answers/teaching';
import {
  AddRoomInput,
  AddTeachingClassInput,
  AddTeachingClassStudentInput,
  CancelTeachingSessionInput,
  ChangeSchedulingQuery,
  CourseSchedulingInput,
  DelSchoolCalendarDayInput,
  DelTeachingClassStudentInput,
  HolidayImportPreviewQuery,
  ImportHolidaysInput,
  EditTeachingClassInput,
  MoveTeachingSessionInput,
  RollCallCountQuery,
  RollCallQuery,
  RoomListQuery,
  SaveRollCallInput,
  SchoolCalendarQuery,
  SelectTeachingClassStudentQuery,
  SetSchoolCalendarDayInput,
  StudentTeachingClassListQuery,
  TeachManageQuery,
  TeachingClassIdQuery,
  TeachingClassListQuery,
  TeachingClassStatusInput,
  TeachingClassStudentQuery,
  TeachingSessionsQuery,
  TermSchedulingInput,
} from '../schemas/teaching';
import { EmptyInput } from '../schemas/auth';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('teaching');

/** The actions of module `teaching` (docs/modules/teaching.md). */
export const teachingActions = [
  POST('addTeachingClass', AddTeachingClassInput, TeachingClass),
  GET('teachingClassInfo', TeachingClassIdQuery, TeachingClass),
  GET('teachingClassSection', TeachingSessionsQuery, TeachingSessionPage),
  GET('teachingClassStudent', TeachingClassStudentQuery, TeachingClassMemberPage),
  GET('selectTeachingClassStudent', SelectTeachingClassStudentQuery, SelectableStudentPage),
  POST('addTeachingClassStudent', AddTeachingClassStudentInput, TeachingClass),
  POST('delTeachingClassStudent', DelTeachingClassStudentInput, TeachingClass),
  GET('teachingClassScheduling', TeachingSessionsQuery, TeachingSessionPage),
  POST('teachingClassCourseScheduling', CourseSchedulingInput, CourseSchedulingAnswer),
  GET('teachingClassChangeScheduling', ChangeSchedulingQuery, ChangeSchedulingAnswer),
  GET('studentTeachingClassList', StudentTeachingClassListQuery, TeachingClassPage),
  GET('teachManage', TeachManageQuery, TeachManageAnswer),
  GET(
    'schoolCalendar',
    SchoolCalendarQuery,
    SchoolCalendarAnswer,
    extra(
      ['A', 'T', 'H'],
      'the school calendar over a range (at most 400 days): holidays and 调休 make-up days (a weekend day that works as a given weekday)',
    ),
  ),
  POST(
    'setSchoolCalendarDay',
    SetSchoolCalendarDayInput,
    SchoolCalendarDayAnswer,
    extra(
      ['A'],
      'set a day of the school calendar: a holiday (no sessions generated) or a make-up day (a Saturday or Sunday running the timetable of works_as, Monday..Friday); answers the sessions already on that day',
    ),
  ),
  POST(
    'delSchoolCalendarDay',
    DelSchoolCalendarDayInput,
    DelSchoolCalendarDayAnswer,
    extra(['A'], 'remove a day from the school calendar (it runs as its own weekday again)'),
  ),
  GET(
    'holidayYears',
    EmptyInput,
    HolidayYearsAnswer,
    extra(
      ['A'],
      "the years of the State Council's holiday table that 导入法定节假日 can apply, each with its notice's number and date and whether it came from the NATIONAL_HOLIDAYS_FILE the API was started with",
    ),
  ),
  GET(
    'holidayImportPreview',
    HolidayImportPreviewQuery,
    HolidayImportPreview,
    extra(
      ['A'],
      "what importing the State Council's holiday and 调休 arrangement of a year would do: the days to set, the school's own days kept, and from today on the sessions cancelled, the make-up days' classes, the dinner bookings cancelled and the day contracts concerned; with a fingerprint",
    ),
  ),
  POST(
    'importHolidays',
    ImportHolidaysInput,
    ImportHolidaysAnswer,
    extra(
      ['A'],
      "apply a year's national holidays to the school calendar as previewed (refused when the plan changed since): writes the days the school has not set, cancels the planned sessions and (after the commit) the dinner bookings on the closed days from today on; a second import changes nothing",
    ),
  ),
  GET('roomList', RoomListQuery, RoomListAnswer, extra(['A'], "the school's rooms with the teaching classes using each, paged, searchable by name")),
  POST('addRoom', AddRoomInput, Room, extra(['A'], 'add a room (name unique in the school, optional capacity)')),
  GET(
    'teachingClassList',
    TeachingClassListQuery,
    TeachingClassPage,
    extra(
      ['A', 'T'],
      'teaching classes newest first, paged, by name or status (a teacher: own classes), with students and sessions scheduled and held',
    ),
  ),
  POST(
    'startAndEndTeachingClass',
    TeachingClassStatusInput,
    TeachingClass,
    extra(
      ['A'],
      'start (1) or stop (0) a teaching class on the version read, as startAndEnd does for care classes: a stopped class takes no new students and no schedule generation; its sessions stay (move or cancel them)',
    ),
  ),
  POST(
    'moveTeachingSession',
    MoveTeachingSessionInput,
    TeachingSession,
    extra(
      ['A'],
      'move one planned session of a teaching class to another day, time or room on the version read: refused with the clash list when the teacher, the room or a student is busy then (other sessions, care time slots) or the day is a holiday',
    ),
  ),
  POST(
    'cancelTeachingSession',
    CancelTeachingSessionInput,
    TeachingSession,
    extra(['A'], 'cancel one planned session with a reason (on the version read); it frees its teacher and room'),
  ),
  GET(
    'rollCall',
    RollCallQuery,
    RollCallAnswer,
    extra(
      ['A', 'T', 'H'],
      "a session's roll call: its class's students with the status saved, or leave pre-filled for an approved leave that day (the session's teacher or the admin)",
    ),
  ),
  POST(
    'rollCall',
    SaveRollCallInput,
    RollCallAnswer,
    extra(
      ['A', 'T', 'H'],
      "save a session's roll call for several students at once (present, late, absent, leave), from its day on; the session becomes held (the session's teacher or the admin)",
    ),
  ),
  POST(
    'teachingTermScheduling',
    TermSchedulingInput,
    TermSchedulingAnswer,
    extra(
      ['A'],
      "generate a term: several teaching classes' sessions at once (each as teachingClassCourseScheduling: weekly pattern, range, holidays skipped), each checked against the stored sessions and the classes before it; preview, or all written or none, refused with every clash and its class",
    ),
  ),
  GET(
    'rollCallCount',
    RollCallCountQuery,
    RollCallCountAnswer,
    extra(
      ['A', 'T', 'H'],
      "the data centre's roll-call counts: present, late, absent and leave saved for the sessions (teaching and tutoring) of a range by day, week or month (the admin all, a teacher or head teacher the sessions they teach)",
    ),
  ),
  GET(
    'rollCallExport',
    RollCallCountQuery,
    FileAnswer,
    extra(['A', 'T', 'H'], 'the roll-call counts of rollCallCount as an .xlsx, with a total row'),
  ),
  POST(
    'editTeachingClass',
    EditTeachingClassInput,
    TeachingClass,
    extra(
      ['A'],
      "edit a teaching class's name, subject, teacher, room, capacity, sessions count and fee on the version read: the planned sessions from today follow a new teacher or room, refused with the clash list when they are busy then; capacity not below the students, sessions count not below the sessions scheduled",
    ),
  ),
] as const;
