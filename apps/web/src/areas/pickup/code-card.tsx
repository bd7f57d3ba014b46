import { Card, Flex, Typography } from 'antd';
import QRCode from 'antd/es/qr-code';
import type { PickupCodeAnswer } from '@wantuo/shared';
import { LoadError, Loading } from '../../components/states';
import { pickupStrings } from './strings';
import { usePickupCode } from './use-pickup-code';

/** The rotating QR of a pick-up code: asked for again when its 30 s window ends, with a countdown. */
export function PickupCodeCard({
  queryKey,
  load,
  title,
  errorText,
}: {
  queryKey: unknown[];
  load: () => Promise<PickupCodeAnswer>;
  title?: string;
  errorText?: string;
}) {
  const pt = pickupStrings.use();
  const { q, secondsLeft: left } = usePickupCode(queryKey, load);
  if (q.isLoading) return <Loading />;
  if (q.isError || !q.data) return <LoadError message={errorText} onRetry={() => q.refetch()} />;
  return (
    <Card size="small" title={title ?? pt('pickup.title')}>
      <Flex vertical align="center" gap={8}>
        <div data-testid="pickup-code" data-code={q.data.code}>
          <QRCode value={q.data.code} size={240} bordered={false} errorLevel="M" />
        </div>
        <Typography.Text strong>
          {q.data.name}（{q.data.relation}）
        </Typography.Text>
        <Typography.Text>{pt('pickup.for', { names: q.data.students.map((s) => s.name).join('、') })}</Typography.Text>
        <Typography.Text type="secondary" data-testid="pickup-countdown">
          {pt('pickup.refresh_in', { s: left })}
        </Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: 12 }}>
          {pt('pickup.hint')}
        </Typography.Paragraph>
      </Flex>
    </Card>
  );
}
