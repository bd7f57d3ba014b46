import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Result, Spin, Typography } from 'antd';
import { formatFen, Role } from '@wantuo/shared';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { get } from '../../api/http';
import { queryKey } from '../../api/query';
import { HOME_OF } from '../../router/route-table';
import { PAYMENT_POLL_MS } from './pay-flow';
import { safeBackPath } from './phone-pay';
import { moneyStrings } from './strings';

/** How long the page polls before it says the result has not arrived yet (it keeps a refresh button). */
export const RESULT_WAIT_MS = 60_000;

/**
 * Where an H5 payment comes back from WeChat's cashier page (/pay/result?out_trade_no=…&back=…): the payment's state,
 * polled while it is pending — paid, still waiting, or closed — and a link back to the page that started it. The
 * server decides (its notify and its check), never the redirect itself.
 */
export default function PayResult() {
  const s = moneyStrings.use();
  const [params] = useSearchParams();
  const outTradeNo = params.get('out_trade_no') ?? '';
  const back = safeBackPath(params.get('back'), HOME_OF[Role.Parent]);
  const [since] = useState(() => Date.now());
  const [late, setLate] = useState(false);
  const state = useQuery({
    queryKey: queryKey('paymentState', { out_trade_no: outTradeNo }),
    queryFn: () => get('paymentState', { out_trade_no: outTradeNo }, { silent: true }),
    enabled: /^[A-Za-z0-9_-]{6,32}$/.test(outTradeNo),
    refetchInterval: (q) => (!late && (q.state.data?.state === 'pending' || !q.state.data) ? PAYMENT_POLL_MS : false),
    retry: 1,
    gcTime: 0,
  });
  useEffect(() => {
    const id = setTimeout(() => setLate(true), Math.max(0, RESULT_WAIT_MS - (Date.now() - since)));
    return () => clearTimeout(id);
  }, [since]);

  const backButton = (primary: boolean) => (
    <Link to={back} key="back">
      <Button type={primary ? 'primary' : 'default'} size="large" data-testid="pay-result-back">
        {s('result.back')}
      </Button>
    </Link>
  );
  const p = state.data;
  let body: React.ReactNode;
  if (!/^[A-Za-z0-9_-]{6,32}$/.test(outTradeNo) || state.isError) {
    body = <Result status="warning" title={s('result.error')} extra={backButton(true)} />;
  } else if (state.isLoading || !p) {
    body = (
      <Flex vertical align="center" gap={8} style={{ padding: 48 }} role="status">
        <Spin />
        <Typography.Text type="secondary">{s('result.loading')}</Typography.Text>
      </Flex>
    );
  } else if (p.state === 'paid' || p.state === 'refunded') {
    body = (
      <Result
        status="success"
        title={s('result.paid')}
        subTitle={s('result.paid_hint', { amount: formatFen(p.amount_fen) })}
        extra={backButton(true)}
      />
    );
  } else if (p.state === 'closed') {
    body = <Result status="info" title={s('result.closed')} subTitle={s('result.closed_hint')} extra={backButton(true)} />;
  } else if (late) {
    body = (
      <Result
        status="warning"
        title={s('result.still_waiting')}
        subTitle={s('result.still_waiting_hint')}
        extra={[
          <Button key="refresh" size="large" onClick={() => void state.refetch()} loading={state.isFetching}>
            {s('result.refresh')}
          </Button>,
          backButton(false),
        ]}
      />
    );
  } else {
    body = (
      <Result
        icon={<Spin size="large" />}
        title={s('result.waiting')}
        subTitle={s('result.waiting_hint')}
        extra={[<Typography.Text key="amount" strong>{`¥${formatFen(p.amount_fen)}`}</Typography.Text>, <br key="br" />, backButton(false)]}
      />
    );
  }
  return (
    <Card title={s('result.title')} style={{ maxWidth: 480, margin: '0 auto' }} styles={{ body: { padding: 12 } }} data-testid="pay-result">
      <div data-state={p?.state ?? (state.isError ? 'error' : 'loading')} data-testid="pay-result-state">
        {body}
      </div>
    </Card>
  );
}
