import { Alert, Flex } from 'antd';
import { useParams } from 'react-router';
import { get } from '../../api/http';
import { QueryProvider } from '../../components/query-provider';
import { PickupCodeCard } from './code-card';
import { isPickupLinkToken } from './link-token';
import { pickupStrings } from './strings';

/** /pickup/:token: a pick-up person without an account shows their own rotating code (375 px). */
export default function PublicPickupPage() {
  const pt = pickupStrings.use();
  const { token = '' } = useParams();
  if (!isPickupLinkToken(token)) return <Alert type="error" showIcon title={pt('pickup.public_invalid')} />;
  // outside every area's layout (no account): the page brings its own query client
  return (
    <QueryProvider>
      <Flex vertical gap={12} style={{ maxWidth: 420, margin: '0 auto', padding: 12 }}>
        <PickupCodeCard
          queryKey={['pickupCodeByLink', token]}
          load={() => get('pickupCodeByLink', { token }, { silent: true })}
          errorText={pt('pickup.public_invalid')}
        />
      </Flex>
    </QueryProvider>
  );
}
