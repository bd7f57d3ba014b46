import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import Toast from 'antd-mobile/es/components/toast';
import { amountInFigures, type ReceiptRow } from '@wantuo/shared';
import { useState } from 'react';
import { downloadReceipt, useChildReceipts } from '../../areas/receipts/receipts-model';
import { receiptStrings } from '../../areas/receipts/strings';
import { useSchoolClock } from '../../lib/school-time';
import { inWechat, userAgent } from '../../lib/wechat-env';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';

/** The receipts the phone pages show for one child: loaded once per child, looked up by contract and booking. */
export type ChildReceipts = ReturnType<typeof useChildReceipts>;
export { useChildReceipts };

/** Opens (downloads) a receipt's PDF; inside WeChat, where a download may be refused, the page says what to do. */
function useOpenReceipt() {
  const s = receiptStrings.use();
  const [opening, setOpening] = useState<number | null>(null);
  const open = async (r: ReceiptRow) => {
    setOpening(r.id);
    if (inWechat(userAgent())) Toast.show({ content: s('p.wechat_hint'), duration: 4000 });
    try {
      await downloadReceipt(s, r);
    } catch {
      // the request wrapper has said why
    } finally {
      setOpening(null);
    }
  };
  return { open, opening };
}

/** 收据 (and 退款收据) buttons of a paid contract or dinner: one per receipt it has. */
export function ReceiptButtons({ receipts }: { receipts: ReceiptRow[] | undefined }) {
  const s = receiptStrings.use();
  const { open, opening } = useOpenReceipt();
  if (!receipts?.length) return null;
  return (
    <div className="m-row-buttons" data-testid="receipt-buttons">
      {receipts.map((r) => (
        <Button key={r.id} fill="outline" color={r.kind === 'refund' ? 'danger' : 'primary'} loading={opening === r.id} onClick={() => void open(r)}>
          {r.kind === 'refund' ? s('p.refund_receipt') : s('p.receipt')} {r.receipt_no}
        </Button>
      ))}
    </div>
  );
}

/** How many receipts the small list shows before 查看全部. */
const SHOWN = 5;

/** A child's receipts (`only` those of contracts or of dinners), newest first: the number, what for, the amount, when; each opens its PDF. */
export function ReceiptList({ receipts, only }: { receipts: ChildReceipts; only?: ReceiptRow['item_kind'] }) {
  const s = receiptStrings.use();
  const clock = useSchoolClock();
  const { open, opening } = useOpenReceipt();
  const [all, setAll] = useState(false);
  const q = receipts.q;
  if (q.isPending) return <PhoneLoading rows={2} />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  const list = only ? q.data.list.filter((r) => r.item_kind === only) : q.data.list;
  const shown = all ? list : list.slice(0, SHOWN);
  return (
    <List className="m-section" header={s('p.list_title')} data-testid="receipt-list">
      {list.length === 0 && <PhoneEmpty description={s('p.empty')} />}
      {shown.map((r) => (
        <List.Item
          key={r.id}
          onClick={opening === r.id ? undefined : () => void open(r)}
          description={`${r.item} · ${clock.dateTime(r.issued_at)}${r.original_receipt_no ? ` · ${s('p.refund_of', { no: r.original_receipt_no })}` : ''}`}
          extra={<span style={r.kind === 'refund' ? { color: 'var(--adm-color-danger)' } : undefined}>{amountInFigures(r.amount_fen)}</span>}
          data-testid={`receipt-${r.id}`}
        >
          <Tag color={r.kind === 'refund' ? 'danger' : 'primary'} fill="outline" style={{ marginRight: 6 }}>
            {s(`kind.${r.kind}`)}
          </Tag>
          {r.receipt_no}
          {opening === r.id && <span className="m-muted"> {s('p.opening')}</span>}
        </List.Item>
      ))}
      {list.length > SHOWN && (
        <List.Item onClick={() => setAll((v) => !v)} arrowIcon={false} style={{ textAlign: 'center' }}>
          <span className="m-muted">{all ? s('p.less') : s('p.more', { n: list.length })}</span>
        </List.Item>
      )}
    </List>
  );
}
