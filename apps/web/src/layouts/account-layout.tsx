import { Role } from '@wantuo/shared';
import { useSession } from '../stores/session';
import { AREA_OF } from '../router/route-table';
import { ConsoleLayout } from './console-layout';

/** Account pages (settings) sit in the console of the user's own area, with its menu. */
export default function AccountLayout() {
  const role = useSession((s) => s.user?.role ?? Role.Parent);
  return <ConsoleLayout area={AREA_OF[role]} brand={{ zh: '用户设置', en: 'Settings' }} />;
}
