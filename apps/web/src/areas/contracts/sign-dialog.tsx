import { useQuery } from '@tanstack/react-query';
import { Alert, Checkbox, DatePicker, Form, Input, Modal, Radio, Select, Typography } from 'antd';
import {
  contractTerms,
  formatFen,
  renewalStartDay,
  yuanToFen,
  type AddContractInput,
  type ContractPackage,
  type ContractRow,
  type StudentRow,
} from '@wantuo/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useAction } from '../../api/action';
import { get } from '../../api/http';
import { MoneyInput } from '../../components/money-input';
import { newRequestId } from '../../lib/request-id';
import { useSchoolToday } from '../../lib/school-time';
import { deskPayment, DeskPaymentFields, kindUnit, usePackageLabel, usePackages, type DeskPaymentValues } from './common';
import { contractStrings } from './strings';
import { queryKey } from '../../api/query';

interface SignValues {
  student_id: number;
  guardian_id: number;
  package_id: number;
  start: Dayjs;
  price: string;
  discount_reason?: string;
  auto_renew?: boolean;
  paid: 'no' | 'desk';
  payment?: DeskPaymentValues;
  remark?: string;
}

/** A student of the school by name (studentList keyword), for pickers. */
function useStudentSearch(keyword: string) {
  return useQuery({
    queryKey: queryKey('studentList', { page: 1, limit: 20, status: 1, ...(keyword ? { keyword } : {}) }),
    queryFn: () => get('studentList', { page: 1, limit: 20, status: 1, ...(keyword ? { keyword } : {}) }),
    staleTime: 10_000,
  });
}

/**
 * The contract a new one for the student continues: of their contracts running or waiting for payment (active,
 * expiring, unpaid), the one ending last; undefined while loading, null when there is none.
 */
function useCurrentContract(studentId: number | undefined): ContractRow | null | undefined {
  const q = useQuery({
    queryKey: queryKey('studentContractList', { student_id: studentId, page: 1, limit: 50 }),
    queryFn: () => get('studentContractList', { student_id: studentId, page: 1, limit: 50 }),
    enabled: studentId !== undefined,
    staleTime: 10_000,
  });
  if (studentId === undefined || q.isError) return null;
  if (!q.data) return undefined;
  const running = q.data.list.filter((c) => c.state === 'active' || c.state === 'expiring' || c.state === 'unpaid');
  return running.reduce<ContractRow | null>((last, c) => (last === null || c.end_day > last.end_day ? c : last), null);
}

/** 签约: student, signing guardian, package, start, price (a discount needs a reason), desk payment or unpaid. One request key per dialog. */
export function SignDialog({
  student,
  onClose,
  onSigned,
}: {
  student?: Pick<StudentRow, 'id' | 'name' | 'guardians'>;
  onClose: () => void;
  onSigned?: (id: number) => void;
}) {
  const s = contractStrings.use();
  const [form] = Form.useForm<SignValues>();
  const sign = useAction('addContract', {
    success: s('sign.done'),
    invalidates: ['contractList', 'studentContractList', 'contractPackage'],
    onDone: (res) => {
      onClose();
      if (res?.id) onSigned?.(res.id);
    },
  });
  const requestId = useRef(newRequestId());
  const [keyword, setKeyword] = useState('');
  const students = useStudentSearch(keyword);
  const packages = usePackages();
  const packageLabel = usePackageLabel();
  const [picked, setPicked] = useState<Pick<StudentRow, 'id' | 'name' | 'guardians'> | undefined>(student);
  const today = useSchoolToday();
  const current = useCurrentContract(picked?.id);
  // the start defaults to the school's today, or the day after the student's current contract ends (renewalStartDay);
  // once the user picks a date it is theirs
  const startChosen = useRef(false);
  const defaultStart = current === undefined ? undefined : current ? renewalStartDay(current.end_day, today) : today;
  useEffect(() => {
    if (defaultStart && !startChosen.current) form.setFieldValue('start', dayjs(defaultStart));
  }, [defaultStart, form]);

  const packageId = Form.useWatch('package_id', form) as number | undefined;
  const start = Form.useWatch('start', form) as Dayjs | undefined;
  const price = Form.useWatch('price', form) as string | undefined;
  const paid = (Form.useWatch('paid', form) as SignValues['paid'] | undefined) ?? 'no';
  const active = (packages.data?.list ?? []).filter((p) => p.active);
  const pkg: ContractPackage | undefined = active.find((p) => p.id === packageId);
  const priceFen = yuanToFen(price ?? '');
  const discounted = pkg !== undefined && priceFen !== null && priceFen < pkg.price_fen;
  const terms = pkg && start ? contractTerms(pkg, start.format('YYYY-MM-DD')) : null;
  const guardians = picked?.guardians ?? [];

  const studentOptions = [...(picked && !students.data?.list.some((r) => r.id === picked.id) ? [picked] : []), ...(students.data?.list ?? [])].map(
    (r) => ({ value: r.id, label: r.name, row: r as Pick<StudentRow, 'id' | 'name' | 'guardians'> & Partial<StudentRow> }),
  );

  const save = (v: SignValues) => {
    const fen = yuanToFen(v.price)!;
    const input: AddContractInput = {
      student_id: v.student_id,
      package_id: v.package_id,
      guardian_id: v.guardian_id,
      start_day: v.start.format('YYYY-MM-DD'),
      price_fen: fen,
      ...(pkg && fen < pkg.price_fen && v.discount_reason?.trim() ? { discount_reason: v.discount_reason.trim() } : {}),
      auto_renew: Boolean(v.auto_renew),
      ...(v.paid === 'desk' && v.payment ? { payment: deskPayment(v.payment) } : {}),
      ...(v.remark?.trim() ? { remark: v.remark.trim() } : {}),
      request_id: requestId.current,
    };
    return sign.run(input);
  };

  return (
    <Modal
      open
      title={s('sign.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={s('sign.submit')}
      confirmLoading={sign.busy}
      width={560}
      maskClosable={false}
      destroyOnHidden
    >
      {packages.isSuccess && active.length === 0 && <Alert type="warning" showIcon title={s('sign.no_package')} style={{ marginBottom: 16 }} />}
      <Form<SignValues>
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={{
          paid: 'no',
          student_id: student?.id,
          guardian_id: student?.guardians.find((g) => g.is_primary)?.user_id ?? student?.guardians[0]?.user_id,
        }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item name="student_id" label={s('sign.student')} rules={[{ required: true, message: s('required') }]}>
          <Select
            showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim()) }}
            disabled={Boolean(student)}
            placeholder={s('sign.student_ph')}
            loading={students.isFetching}
            options={studentOptions}
            optionRender={(o) => (
              <span>
                {o.data.row.name}{' '}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {[o.data.row.grade, o.data.row.class_name, o.data.row.care_class?.name].filter(Boolean).join(' · ')}
                </Typography.Text>
              </span>
            )}
            onChange={(id: number, o) => {
              const row = (Array.isArray(o) ? o[0] : o)?.row;
              setPicked(row);
              const g = row?.guardians.find((x) => x.is_primary) ?? row?.guardians[0];
              form.setFieldValue('guardian_id', g?.user_id);
              void id;
            }}
          />
        </Form.Item>
        {picked && guardians.length === 0 && <Alert type="warning" showIcon title={s('sign.no_guardian')} style={{ marginBottom: 16 }} />}
        <Form.Item name="guardian_id" label={s('sign.guardian')} rules={[{ required: true, message: s('required') }]}>
          <Select
            placeholder={s('sign.guardian_ph')}
            disabled={!picked}
            options={guardians.map((g) => ({ value: g.user_id, label: `${g.name}（${g.relation}）${g.mobile}` }))}
          />
        </Form.Item>
        <Form.Item name="package_id" label={s('sign.package')} rules={[{ required: true, message: s('required') }]}>
          <Select
            loading={packages.isLoading}
            options={active.map((p) => ({ value: p.id, label: packageLabel(p) }))}
            onChange={(id: number) => {
              const p = active.find((x) => x.id === id);
              if (p) form.setFieldValue('price', formatFen(p.price_fen));
            }}
          />
        </Form.Item>
        <Form.Item
          name="start"
          label={s('sign.start')}
          rules={[{ required: true, message: s('required') }]}
          extra={current && defaultStart !== today ? s('sign.start_after', { package: current.package_name, end: current.end_day }) : undefined}
        >
          <DatePicker
            inputReadOnly
            style={{ width: '100%' }}
            onChange={() => {
              startChosen.current = true;
            }}
          />
        </Form.Item>
        {terms && pkg && (
          <Alert
            type="info"
            style={{ marginBottom: 16 }}
            title={
              s('sign.preview', { start: terms.start_day, end: terms.end_day }) +
              (terms.units_total !== null ? s('sign.preview_units', { n: terms.units_total, unit: s(kindUnit(pkg.kind)) }) : '')
            }
            data-testid="sign-preview"
          />
        )}
        <Form.Item
          name="price"
          label={s('sign.price')}
          extra={pkg ? s('sign.price_hint', { price: formatFen(pkg.price_fen) }) : undefined}
          dependencies={['package_id']}
          rules={[
            {
              validator: (_, v: string | undefined) => {
                const fen = yuanToFen(v ?? '');
                if (fen === null || fen < 1 || fen > 10_000_000) return Promise.reject(new Error(s('sign.price_invalid')));
                if (pkg && fen > pkg.price_fen) return Promise.reject(new Error(s('sign.price_above')));
                return Promise.resolve();
              },
            },
          ]}
        >
          <MoneyInput />
        </Form.Item>
        {discounted && (
          <Form.Item
            name="discount_reason"
            label={s('sign.discount_reason')}
            rules={[{ required: true, whitespace: true, message: s('sign.discount_required') }, { max: 200 }]}
          >
            <Input maxLength={200} />
          </Form.Item>
        )}
        <Form.Item name="auto_renew" valuePropName="checked">
          <Checkbox>{s('sign.auto_renew')}</Checkbox>
        </Form.Item>
        <Form.Item name="paid" label={s('sign.pay')}>
          <Radio.Group
            options={[
              { value: 'no', label: s('sign.pay_none') },
              { value: 'desk', label: s('sign.pay_desk') },
            ]}
          />
        </Form.Item>
        {paid === 'desk' && <DeskPaymentFields />}
        <Form.Item name="remark" label={s('sign.remark')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
