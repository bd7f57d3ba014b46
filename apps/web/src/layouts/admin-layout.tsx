import { ConsoleLayout } from './console-layout';

export default function AdminLayout() {
  return <ConsoleLayout area="principal" brand={{ zh: '机构管理', en: 'Institution admin' }} />;
}
