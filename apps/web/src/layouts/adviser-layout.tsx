import { ConsoleLayout } from './console-layout';

export default function AdviserLayout() {
  return <ConsoleLayout area="adviser" brand={{ zh: '班主任工作台', en: 'Head teacher' }} />;
}
