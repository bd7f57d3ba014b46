import { useQueryClient } from '@tanstack/react-query';
import { Form, Image, Input, Modal, Tag, Typography } from 'antd';
import { formatFen, type BalancePayGoodsOrderInput, type StoreOrder, type StoreOrderState } from '@wantuo/shared';
import { useAction } from '../../api/action';
import { post } from '../../api/http';
import { PaymentDialog } from '../money/payment-dialog';
import { useMoneyRefresh, useSchool } from '../money/use-school';
import { storeStrings } from './strings';
import { queryKey } from '../../api/query';

export const yuan = (fen: number) => `¥${formatFen(fen)}`;

const STATE_COLOR: Record<StoreOrderState, string> = { unpaid: 'orange', paid: 'blue', shipped: 'cyan', done: 'green', cancelled: 'default' };

export function OrderStateTag({ state }: { state: StoreOrderState }) {
  const s = storeStrings.use();
  return <Tag color={STATE_COLOR[state]}>{s(`state.${state}`)}</Tag>;
}

/** A good's first picture, or a grey placeholder with its first character. */
export function GoodsCover({ src, name, size = 64 }: { src?: string | null; name: string; size?: number }) {
  if (src) return <Image src={src} alt={name} width={size} height={size} style={{ objectFit: 'cover', borderRadius: 6 }} preview={false} />;
  return (
    <div
      aria-hidden
      style={{
        width: size,
        height: size,
        borderRadius: 6,
        background: '#f0f5ff',
        color: '#2f54eb',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontSize: size / 2.6,
        flex: 'none',
      }}
    >
      {name.slice(0, 1)}
    </div>
  );
}

/** Invalidates everything the mall's screens read after an order changed. */
export function useStoreRefresh() {
  const qc = useQueryClient();
  const money = useMoneyRefresh();
  return () => {
    money();
    void qc.invalidateQueries({ queryKey: queryKey('goodsOrderList') });
    void qc.invalidateQueries({ queryKey: queryKey('storeOrderList') });
    void qc.invalidateQueries({ queryKey: queryKey('goodsList') });
    void qc.invalidateQueries({ queryKey: queryKey('goodsInfo') });
  };
}

/** The one payment dialog for a mall order: the school's balance with the payment password, or WeChat Pay (QR). */
export function PayOrderDialog({
  order,
  onClose,
  onPaid,
}: {
  order: Pick<StoreOrder, 'id' | 'no' | 'total_fen'>;
  onClose: () => void;
  onPaid: () => void;
}) {
  const s = storeStrings.use();
  const school = useSchool();
  const refresh = useStoreRefresh();
  return (
    <PaymentDialog
      open
      title={s('pay_title', { no: order.no })}
      amountFen={order.total_fen}
      wechat={() => post('wechatPayGoodsOrder', { id: order.id })}
      balance={
        school.data
          ? {
              balanceFen: school.data.balance_fen,
              hasDealPwd: school.data.has_deal_pwd,
              lockedUntil: school.data.deal_pwd_locked_until,
              pay: async (deal_pwd, request_id) => {
                const input: BalancePayGoodsOrderInput = { id: order.id, deal_pwd, request_id };
                await post('balancePayGoodsOrder', input);
              },
            }
          : undefined
      }
      onPaid={() => {
        refresh();
        onPaid();
      }}
      onClose={() => {
        refresh();
        onClose();
      }}
    />
  );
}

/** Asks why, then cancels an order (a paid one is refunded). */
export function CancelOrderDialog({ order, onClose }: { order: Pick<StoreOrder, 'id' | 'no' | 'state'>; onClose: () => void }) {
  const s = storeStrings.use();
  const [form] = Form.useForm<{ reason: string }>();
  const refresh = useStoreRefresh();
  const cancel = useAction('cancelGoodsOrder', {
    success: s('cancelled_ok'),
    onDone: () => {
      refresh();
      onClose();
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await cancel.run({ id: order.id, reason: v.reason.trim() });
  };
  return (
    <Modal
      open
      title={`${s('cancel_order')} · ${order.no}`}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={cancel.busy}
      okButtonProps={{ danger: true }}
      destroyOnHidden
    >
      {order.state === 'paid' && <Typography.Paragraph type="warning">{s('cancel_paid_note')}</Typography.Paragraph>}
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label={s('cancel_reason')} rules={[{ required: true, whitespace: true, message: s('required') }]}>
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** "name ×2、name ×1" of an order's lines. */
export function linesText(o: Pick<StoreOrder, 'lines'>): string {
  return o.lines.map((l) => `${l.name} ×${l.quantity}`).join('、');
}
