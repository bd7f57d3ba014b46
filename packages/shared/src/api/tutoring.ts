import { GET, POST, Pending } from './define';
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

/** The actions of module `tutoring` (docs/modules/tutoring.md). */
export const tutoringActions = [
  GET('tutorialInfo', TutorialInfoQuery, Pending),
  GET('tutorialType', TutorialTypeQuery, Pending),
  GET('tutorialSettingList', TutorialSettingListQuery, Pending),
  POST('tutorialSetting', TutorialSettingInput, Pending),
  POST('addTutorialSchoolCare', AddTutorialSchoolCareInput, Pending),
  GET('tutorialStudent', TutorialStudentQuery, Pending),
  GET('tutorialStudentInfo', TutorialStudentInfoQuery, Pending),
  GET('selectTutorialStudent', SelectTutorialStudentQuery, Pending),
  POST('addTutorialStudent', AddTutorialStudentInput, Pending),
  POST('delTutorialStudent', DelTutorialStudentInput, Pending),
  POST('tutorialChangeScheduling', TutorialChangeSchedulingInput, Pending),
  GET('tutorialList', TutorialListQuery, Pending),
  GET('tutorialScheduling', TutorialSchedulingQuery, Pending),
  POST('startAndEndTutorialClass', TutorialClassStatusInput, Pending),
  POST('delTutorialClass', DelTutorialClassInput, Pending),
  POST('cancelTutorialSession', CancelTutorialSessionInput, Pending),
] as const;
