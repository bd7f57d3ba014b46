import Button from 'antd-mobile/es/components/button';
import Card from 'antd-mobile/es/components/card';
import Tag from 'antd-mobile/es/components/tag';
import Toast from 'antd-mobile/es/components/toast';
import { useQueryClient } from '@tanstack/react-query';
import { formatFen, type ContractRow, type ContractState, type ParentChild, type ReceiptRow } from '@wantuo/shared';
import { useState } from 'react';
import { owedOf, payContract, useChildrenContracts, useUnitsText } from '../../areas/contracts/parent-contracts-model';
import { contractStrings } from '../../areas/contracts/strings';
import { useParentChildren } from '../../areas/parent/children';
import { PaySheet } from '../money/pay-sheet';
import { PhonePage, QueryView } from '../ui/page';
import { PhoneError, PhoneLoading } from '../ui/states';
import { ReceiptButtons, ReceiptList, useChildReceipts } from './receipts';
import { todayStrings } from './today-strings';
import './today.css';

/** A contract state's tag colour (antd-mobile's). */
const STATE_COLOR: Record<ContractState, string> = {
  unpaid: 'warning',
  active: 'success',
  expiring: '#fa8c16',
  expired: 'default',
  cancelled: 'danger',
};

/** /m/parent_contracts (缴费): what is owed, each child's care contracts, and paying an unpaid one by WeChat Pay. */
export default function ParentContractsPhone() {
  const s = contractStrings.use();
  const qc = useQueryClient();
  const q = useParentChildren();
  return (
    <PhonePage onRefresh={() => Promise.all([q.refetch(), qc.invalidateQueries({ queryKey: ['studentContractList'] })])}>
      <QueryView query={q} isEmpty={(d) => d.list.length === 0} empty={s('parent.no_children')}>
        {(d) => <ChildrenContracts kids={d.list} />}
      </QueryView>
    </PhonePage>
  );
}

function ChildrenContracts({ kids }: { kids: ParentChild[] }) {
  const s = contractStrings.use();
  const tt = todayStrings.use();
  const qc = useQueryClient();
  const lists = useChildrenContracts(kids);
  const [paying, setPaying] = useState<ContractRow | null>(null);
  const loaded = lists.every((l) => l.data);
  const owed = owedOf(lists.map((l) => l.data));
  return (
    <>
      {loaded && (
        <Card className="m-section" data-testid="owed">
          <div className="m-card-title" style={{ marginBottom: 0 }}>
            <span className="m-strong">{tt('pt.owed')}</span>
            <span className={owed.rows.length ? 'm-strong' : 'm-muted'} style={owed.rows.length ? { color: 'var(--adm-color-warning)' } : undefined}>
              {owed.rows.length ? tt('pt.owed_total', { n: owed.rows.length, amount: formatFen(owed.fen) }) : tt('pt.nothing_owed')}
            </span>
          </div>
        </Card>
      )}
      {kids.map((k, i) => (
        <KidContracts key={k.id} kid={k} q={lists[i]} onPay={setPaying} />
      ))}
      <PaySheet
        open={paying !== null}
        title={paying ? s('parent.pay_title', { no: paying.no }) : ''}
        amountFen={paying?.price_fen ?? 0}
        start={paying ? payContract(paying) : null}
        onPaid={() => {
          Toast.show({ content: s('parent.paid'), icon: 'success' });
          void qc.invalidateQueries({ queryKey: ['studentContractList'] });
        }}
        onClose={() => setPaying(null)}
      />
    </>
  );
}

/** One child's contracts, each paid one with its receipts, and the child's receipts below them. */
function KidContracts({ kid, q, onPay }: { kid: ParentChild; q: ReturnType<typeof useChildrenContracts>[number]; onPay: (c: ContractRow) => void }) {
  const s = contractStrings.use();
  const receipts = useChildReceipts(kid.id);
  return (
    <section aria-label={kid.name}>
      <div className="m-pad" style={{ paddingBottom: 0 }}>
        <span className="m-strong">{kid.name}</span>
        {kid.care_class && <span className="m-muted"> · {kid.care_class.name}</span>}
      </div>
      {q.isPending ? (
        <PhoneLoading rows={3} />
      ) : !q.data ? (
        <PhoneError error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.list.length === 0 ? (
        <div className="m-section m-pad m-muted">{s('parent.empty')}</div>
      ) : (
        q.data.list.map((c) => <ContractCard key={c.id} c={c} receipts={receipts.byContract.get(c.id)} onPay={() => onPay(c)} />)
      )}
      <ReceiptList receipts={receipts} only="contract" />
    </section>
  );
}

function ContractCard({ c, onPay, receipts }: { c: ContractRow; onPay: () => void; receipts: ReceiptRow[] | undefined }) {
  const s = contractStrings.use();
  const unitsText = useUnitsText();
  const left = unitsText(c);
  return (
    <Card className="m-section" data-testid={`contract-${c.id}`}>
      <div className="m-card-title">
        <div style={{ minWidth: 0 }}>
          <div className="m-strong">{c.package_name}</div>
          <div className="m-sub">{c.no}</div>
        </div>
        <Tag color={STATE_COLOR[c.state]}>{s(`state.${c.state}`)}</Tag>
      </div>
      <div className="m-kv">
        <span>{s('parent.period')}</span>
        <span>
          {c.start_day} ~ {c.end_day}
        </span>
      </div>
      <div className="m-kv">
        <span>{s('parent.amount')}</span>
        <span>¥{formatFen(c.price_fen)}</span>
      </div>
      {left !== '-' && (
        <div className="m-kv">
          <span>{s('parent.left')}</span>
          <span>{left}</span>
        </div>
      )}
      {c.status === 'unpaid' && (
        <Button block color="primary" size="large" style={{ marginTop: 12 }} onClick={onPay}>
          {s('parent.pay')} ¥{formatFen(c.price_fen)}
        </Button>
      )}
      <ReceiptButtons receipts={receipts} />
    </Card>
  );
}
