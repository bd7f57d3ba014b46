import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useT } from '../stores/preferences';
import { useSession } from '../stores/session';
import { HOME_OF } from '../router/route-table';

/** Unknown paths (spec §2: a 404 page), and the fallback of a failed navigation. */
export default function NotFound({ kind = 'not-found' }: { kind?: 'not-found' | 'error' }) {
  const t = useT();
  const user = useSession((s) => s.user);
  const home = user ? HOME_OF[user.role] : '/home';
  return (
    <Result
      status={kind === 'not-found' ? '404' : 'error'}
      title={kind === 'not-found' ? '404' : t('error.route')}
      subTitle={kind === 'not-found' ? t('error.not_found') : undefined}
      extra={
        <Link to={home}>
          <Button type="primary">{t('common.back_home')}</Button>
        </Link>
      }
    />
  );
}
