import { ConsoleLayout } from './console-layout';

export default function ParentLayout() {
  return <ConsoleLayout area="parent" brand={{ zh: '家长中心', en: 'Parents' }} />;
}
