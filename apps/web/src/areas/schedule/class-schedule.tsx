import { ClassWeek } from './adviser-schedule';

/** /principal_class_schedule: the admin's week of any running care or teaching class of the school (classSchedule). */
export default function ClassSchedulePage() {
  return <ClassWeek />;
}
