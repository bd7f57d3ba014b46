import { ConsoleLayout } from './console-layout';

export default function OperatorLayout() {
  return <ConsoleLayout area="operator" brand={{ zh: '平台运营', en: 'Platform operator' }} />;
}
