import { Card } from 'antd';
import { EmptyState } from '../../components/states';
import { useT } from '../../stores/preferences';

/**
 * The parent's home. Children come with the students module (guardians); until a child is registered with this
 * parent as guardian there is nothing to list, and the page says what will appear.
 */
export default function ParentHome() {
  const t = useT();
  return (
    <Card title={t('parent.children')}>
      <EmptyState description={t('parent.children_empty')} />
    </Card>
  );
}
