import { GET, POST, extraOf } from './define';
import {
  AddTutorialSchoolCareAnswer,
  DelTutorialClassAnswer,
  SelectableTutoringStudentPage,
  TutorialSetting,
  TutorialSettingPage,
  TutorialStudentInfo,
  TutorialTypePage,
  TutoringClass,
  TutoringClassPage,
  TutoringMemberPage,
  TutoringSession,
  TutoringSessionPage,
} from '../answers/tutoring';
import {
  AddTutorialSchoolCareInput,
  AddTutorialStudentInput,
  CancelTutorialSessionInput,
  DelTutorialClassInput,
  DelTutorialStudentInput,
  SelectTutorialStudentQuery,
  TutorialChangeSchedulingInput,
  TutorialClassStatusInput,
  TutorialInfoQuery,
  TutorialListQuery,
  TutorialSchedulingQuery,
  TutorialSettingInput,
  TutorialSettingListQuery,
  TutorialStudentInfoQuery,
  TutorialStudentQuery,
  TutorialTypeQuery,
} from '../schemas/tutoring';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('tutoring');

/** The actions of module `tutoring` (docs/modules/tutoring.md). */
export const tutoringActions = [
  GET('tutorialInfo', TutorialInfoQuery, TutoringClass),
  GET('tutorialType', TutorialTypeQuery, TutorialTypePage),
  GET('tutorialSettingList', TutorialSettingListQuery, TutorialSettingPage),
  POST('tutorialSetting', TutorialSettingInput, TutorialSetting),
  POST('addTutorialSchoolCare', AddTutorialSchoolCareInput, AddTutorialSchoolCareAnswer),
  GET('tutorialStudent', TutorialStudentQuery, TutoringMemberPage),
  GET('tutorialStudentInfo', TutorialStudentInfoQuery, TutorialStudentInfo),
  GET('selectTutorialStudent', SelectTutorialStudentQuery, SelectableTutoringStudentPage),
  POST('addTutorialStudent', AddTutorialStudentInput, TutoringClass),
  POST('delTutorialStudent', DelTutorialStudentInput, TutoringClass),
  POST('tutorialChangeScheduling', TutorialChangeSchedulingInput, TutoringSession),
  GET(
    'tutorialList',
    TutorialListQuery,
    TutoringClassPage,
    extra(['A'], 'home-tutoring classes newest first, paged, by name or type, with students and sessions scheduled and held'),
  ),
  GET(
    'tutorialScheduling',
    TutorialSchedulingQuery,
    TutoringSessionPage,
    extra(
      ['A'],
      "a tutoring class's sessions in day order with their lesson number and version (what tutorialChangeScheduling moves), paged, by range and state",
    ),
  ),
  POST(
    'startAndEndTutorialClass',
    TutorialClassStatusInput,
    TutoringClass,
    extra(
      ['A'],
      'start (1) or stop (0) a tutoring class on the version read: a stopped class takes no new students; its sessions stay (move or cancel them)',
    ),
  ),
  POST(
    'delTutorialClass',
    DelTutorialClassInput,
    DelTutorialClassAnswer,
    extra(
      ['A'],
      'delete a tutoring class with no held session on the version read (soft delete; its planned sessions are cancelled, its name is free again)',
    ),
  ),
  POST(
    'cancelTutorialSession',
    CancelTutorialSessionInput,
    TutoringSession,
    extra(['A'], 'cancel one planned tutoring session with a reason on the version read; it frees its teacher and room'),
  ),
] as const;
