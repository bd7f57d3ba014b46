import { ConsoleLayout } from './console-layout';

export default function TeacherLayout() {
  return <ConsoleLayout area="teacher" brand={{ zh: '教师工作台', en: 'Teacher' }} />;
}
