import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Flex, Image, Input, Select, Space, Tag, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { amountInFigures, RECEIPT_KINDS, RECEIPT_METHOD_LABELS, type ReceiptKind, type ReceiptRow } from '@wantuo/shared';
import { useState } from 'react';
import { download } from '../../api/download';
import { feedback } from '../../api/feedback';
import { get, upload } from '../../api/http';
import { queryKey } from '../../api/query';
import { ServerTable } from '../../components/server-table';
import { EmptyState, LoadError } from '../../components/states';
import { useSchoolClock } from '../../lib/school-time';
import { usePreferences } from '../../stores/preferences';
import { downloadReceipt } from './receipts-model';
import { receiptStrings } from './strings';

const PAGE = 20;
const KIND_COLOR: Record<ReceiptKind, string> = { contract: 'blue', meal: 'cyan', refund: 'red' };

/**
 * /principal_receipts 收据管理 (issue 40): the school's receipts of a month (the school's own months), by kind and by
 * the child's name or the receipt number, server-paged, each downloadable; the month's export; the stamp new receipts
 * carry (uploaded here, previewed; the page says when there is none).
 */
export default function PrincipalReceipts() {
  const s = receiptStrings.use();
  return (
    <Flex vertical gap={16}>
      <StampCard />
      <Card title={s('a.title')}>
        <Typography.Paragraph type="secondary">{s('a.intro')}</Typography.Paragraph>
        <ReceiptTable />
      </Card>
    </Flex>
  );
}

function ReceiptTable() {
  const s = receiptStrings.use();
  const lang = usePreferences((st) => st.lang);
  const clock = useSchoolClock();
  const [month, setMonthOf] = useState(() => clock.day().slice(0, 7));
  const [kind, setKindOf] = useState<ReceiptKind | undefined>();
  const [keyword, setKeywordOf] = useState('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const filters = { month, ...(kind ? { kind } : {}), ...(keyword ? { keyword } : {}) };
  const input = { ...filters, page, limit: PAGE };
  const q = useQuery({
    queryKey: queryKey('adminReceiptList', input),
    queryFn: () => get('adminReceiptList', input),
    placeholderData: keepPreviousData,
  });
  const exportMonth = async () => {
    setExporting(true);
    try {
      await download('adminReceiptExport', { month }, s('a.export_name', { month }));
    } catch {
      // the request wrapper has said why
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Space wrap>
          <DatePicker
            picker="month"
            aria-label={s('a.month')}
            allowClear={false}
            inputReadOnly
            value={dayjs(`${month}-01`)}
            disabledDate={(d) => d.isAfter(dayjs(clock.day()), 'month')}
            onChange={(d) => d && reset(setMonthOf)(d.format('YYYY-MM'))}
          />
          <Select<ReceiptKind>
            allowClear
            aria-label={s('a.kind')}
            placeholder={s('a.all_kinds')}
            style={{ width: 130 }}
            value={kind}
            onChange={reset(setKindOf)}
            options={RECEIPT_KINDS.map((k) => ({ value: k, label: s(`kind.${k}`) }))}
          />
          <Input.Search
            allowClear
            aria-label={s('a.keyword')}
            placeholder={s('a.keyword')}
            style={{ width: 220 }}
            maxLength={50}
            onSearch={(v) => reset(setKeywordOf)(v.trim())}
          />
        </Space>
        <Button onClick={() => void exportMonth()} loading={exporting} data-testid="receipts-export">
          {s('a.export')}
        </Button>
      </Flex>
      <ServerTable<ReceiptRow>
        query={q}
        page={q.data?.page ?? page}
        onPage={setPage}
        pageSize={q.data?.limit ?? PAGE}
        size="middle"
        scroll={{ x: 1100 }}
        data-testid="receipts-table"
        locale={{ emptyText: <EmptyState description={kind || keyword ? s('a.empty_filtered') : s('a.empty')} /> }}
        columns={[
          { title: s('col.no'), key: 'no', width: 130, render: (_, r) => <Typography.Text copyable>{r.receipt_no}</Typography.Text> },
          { title: s('col.kind'), key: 'kind', width: 90, render: (_, r) => <Tag color={KIND_COLOR[r.kind]}>{s(`kind.${r.kind}`)}</Tag> },
          { title: s('col.issued'), key: 'issued', width: 150, render: (_, r) => clock.dateTime(r.issued_at) },
          { title: s('col.student'), key: 'student', width: 100, render: (_, r) => r.student_name },
          { title: s('col.item'), key: 'item', render: (_, r) => r.item },
          {
            title: s('col.amount'),
            key: 'amount',
            width: 120,
            align: 'right',
            render: (_, r) =>
              r.kind === 'refund' ? <Typography.Text type="danger">-{amountInFigures(r.amount_fen)}</Typography.Text> : amountInFigures(r.amount_fen),
          },
          { title: s('col.method'), key: 'method', width: 100, render: (_, r) => RECEIPT_METHOD_LABELS[r.method][lang === 'en' ? 'en' : 'zh'] },
          { title: s('col.original'), key: 'original', width: 120, render: (_, r) => r.original_receipt_no ?? '-' },
          {
            title: '',
            key: 'download',
            width: 80,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => void downloadReceipt(s, r).catch(() => undefined)}>
                {s('a.download')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

/** The stamp new receipts carry: its preview, or the note that receipts are issued without one; upload or replace it. */
function StampCard() {
  const s = receiptStrings.use();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: queryKey('adminReceiptStampInfo', {}), queryFn: () => get('adminReceiptStampInfo', {}) });
  const save = useMutation({
    mutationFn: (file: Blob) => {
      const fd = new FormData();
      fd.append('file', file);
      return upload('adminReceiptStampUpload', fd);
    },
    onSuccess: (info) => {
      qc.setQueryData(queryKey('adminReceiptStampInfo', {}), info);
      feedback().message.success(s('stamp.uploaded'));
    },
  });
  const stamp = q.data?.stamp ?? null;
  return (
    <Card title={s('stamp.title')} data-testid="stamp-card" loading={q.isPending}>
      {q.isError ? (
        <LoadError message={q.error?.message} onRetry={() => void q.refetch()} />
      ) : (
        <Flex gap={24} align="center" wrap>
          {stamp ? (
            <Image
              src={stamp.url}
              alt={s('stamp.alt', { school: q.data?.school_name ?? '' })}
              width={96}
              height={96}
              style={{ objectFit: 'contain' }}
            />
          ) : null}
          <Flex vertical gap={8} style={{ flex: 1, minWidth: 260 }}>
            {stamp ? (
              <Typography.Text type="secondary">{s('stamp.present')}</Typography.Text>
            ) : (
              <Alert type="warning" showIcon message={s('stamp.missing')} data-testid="stamp-missing" />
            )}
            <Typography.Text type="secondary">{s('stamp.hint')}</Typography.Text>
            <Upload
              accept="image/png,image/jpeg"
              showUploadList={false}
              customRequest={({ file, onSuccess, onError }) =>
                save.mutate(file as Blob, { onSuccess: (r) => onSuccess?.(r), onError: (e) => onError?.(e as Error) })
              }
            >
              <Button type={stamp ? 'default' : 'primary'} loading={save.isPending} data-testid="stamp-upload">
                {stamp ? s('stamp.replace') : s('stamp.upload')}
              </Button>
            </Upload>
          </Flex>
        </Flex>
      )}
    </Card>
  );
}
