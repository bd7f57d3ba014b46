import { ConsoleLayout, type ExternalLink } from './console-layout';

/** Bull Board, served by the API at /admin/queues for operators (the session cookie signs them in). */
const LINKS: ExternalLink[] = [{ href: '/admin/queues', label: { zh: '任务队列', en: 'Job queues' } }];

export default function OperatorLayout() {
  return <ConsoleLayout area="operator" brand={{ zh: '平台运营', en: 'Platform operator' }} links={LINKS} />;
}
