import { useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import {
  DEFAULT_VALID_MONTHS,
  formatFen,
  isCounted,
  PACKAGE_INCLUDES,
  PACKAGE_KINDS,
  TERM_MONTHS,
  yuanToFen,
  type AddContractPackageInput,
  type ContractPackage,
  type PackageInclude,
  type PackageKind,
} from '@wantuo/shared';
import { useState } from 'react';
import { MoneyInput } from '../../components/money-input';
import { EmptyState, LoadError } from '../../components/states';
import { kindUnit, PACKAGES_KEY, usePackages } from './common';
import { contractStrings } from './strings';
import { useAction } from '../../api/action';

/** 套餐管理: the school's packages, add and edit, enable and disable (a package is never deleted). */
export function PackageManager() {
  const s = contractStrings.use();
  const q = usePackages();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<ContractPackage | 'new' | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: PACKAGES_KEY });
  const setActive = useAction('setContractPackageActive', { onDone: refresh });
  const toggle = (p: ContractPackage, active: boolean) => setActive.run({ id: p.id, version: p.version, active });

  if (q.isError) return <LoadError onRetry={() => void q.refetch()} />;
  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{s('pkg.disabled_hint')}</Typography.Text>
        <Button type="primary" onClick={() => setEditing('new')}>
          {s('pkg.add')}
        </Button>
      </Flex>
      <Table<ContractPackage>
        rowKey="id"
        loading={q.isLoading}
        dataSource={q.data?.list}
        pagination={false}
        scroll={{ x: 860 }}
        locale={{ emptyText: <EmptyState description={s('pkg.empty')} /> }}
        columns={[
          {
            title: s('pkg.name'),
            dataIndex: 'name',
            width: 180,
            render: (v: string, p) => (p.active ? v : <Typography.Text type="secondary">{v}</Typography.Text>),
          },
          {
            title: s('pkg.kind'),
            key: 'kind',
            width: 200,
            render: (_, p) => (
              <Space size={4} wrap>
                {s(`kind.${p.kind}`)}
                <span>{s('pkg.length_of', { n: p.length, unit: s(kindUnit(p.kind)) })}</span>
                {isCounted(p.kind) && (
                  <Typography.Text type="secondary">（{s('pkg.valid_of', { n: p.valid_months ?? DEFAULT_VALID_MONTHS })}）</Typography.Text>
                )}
              </Space>
            ),
          },
          { title: s('pkg.price'), dataIndex: 'price_fen', width: 110, align: 'right', render: (v: number) => formatFen(v) },
          {
            title: s('pkg.includes'),
            dataIndex: 'includes',
            width: 190,
            render: (v: PackageInclude[]) => v.map((i) => <Tag key={i}>{s(`inc.${i}`)}</Tag>),
          },
          { title: s('pkg.contracts'), dataIndex: 'contracts', width: 90, align: 'right' },
          {
            title: s('pkg.active'),
            key: 'active',
            width: 80,
            render: (_, p) => (
              <Switch
                checked={p.active}
                loading={setActive.busy && setActive.input?.id === p.id}
                aria-label={`${s('pkg.active')} ${p.name}`}
                onChange={(v) => void toggle(p, v)}
              />
            ),
          },
          {
            title: s('col.actions'),
            key: 'actions',
            width: 80,
            fixed: 'right',
            render: (_, p) => (
              <Button type="link" onClick={() => setEditing(p)}>
                {s('act.edit')}
              </Button>
            ),
          },
        ]}
      />
      {editing && <PackageDialog pkg={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={refresh} />}
    </>
  );
}

interface PackageValues {
  name: string;
  kind: PackageKind;
  length: number;
  valid_months?: number | null;
  price: string;
  includes: PackageInclude[];
  description?: string;
}

function PackageDialog({ pkg, onClose, onSaved }: { pkg: ContractPackage | null; onClose: () => void; onSaved: () => void }) {
  const s = contractStrings.use();
  const [form] = Form.useForm<PackageValues>();
  // a refusal (a name taken, a stale version) is shown by the request wrapper
  const saved = {
    success: s('act.saved'),
    onDone: () => {
      onSaved();
      onClose();
    },
  };
  const add = useAction('addContractPackage', saved);
  const edit = useAction('editContractPackage', saved);
  const kind = (Form.useWatch('kind', form) as PackageKind | undefined) ?? pkg?.kind ?? 'month';

  const save = async (v: PackageValues) => {
    const input: AddContractPackageInput = {
      name: v.name.trim(),
      kind: v.kind,
      length: v.length,
      valid_months: isCounted(v.kind) ? (v.valid_months ?? null) : null,
      price_fen: yuanToFen(v.price)!,
      includes: v.includes ?? [],
      ...(v.description?.trim() ? { description: v.description.trim() } : {}),
    };
    if (pkg) await edit.run({ id: pkg.id, version: pkg.version, ...input });
    else await add.run(input);
  };

  return (
    <Modal
      open
      title={pkg ? s('pkg.edit') : s('pkg.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={add.busy || edit.busy}
      width={480}
      destroyOnHidden
    >
      <Form<PackageValues>
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={
          pkg
            ? {
                name: pkg.name,
                kind: pkg.kind,
                length: pkg.length,
                valid_months: pkg.valid_months,
                price: formatFen(pkg.price_fen),
                includes: pkg.includes,
                description: pkg.description ?? '',
              }
            : { kind: 'month', length: 1, includes: ['care'] }
        }
        onFinish={(v) => void save(v)}
      >
        <Form.Item name="name" label={s('pkg.name')} rules={[{ required: true, whitespace: true, message: s('required') }, { max: 50 }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="kind" label={s('pkg.kind')} rules={[{ required: true }]}>
          <Select options={PACKAGE_KINDS.map((k) => ({ value: k, label: s(`kind.${k}`) }))} />
        </Form.Item>
        <Flex gap={12} wrap>
          <Form.Item
            name="length"
            label={s('pkg.length')}
            extra={kind === 'term' ? s('pkg.term_note', { n: TERM_MONTHS }) : undefined}
            rules={[{ required: true, type: 'integer', min: 1, max: 400, message: s('pkg.length_invalid') }]}
            style={{ flex: '1 1 160px' }}
          >
            <InputNumber min={1} max={400} precision={0} suffix={s(kindUnit(kind))} style={{ width: '100%' }} />
          </Form.Item>
          {isCounted(kind) && (
            <Form.Item
              name="valid_months"
              label={s('pkg.valid_months')}
              rules={[{ type: 'integer', min: 1, max: 36, message: s('pkg.length_invalid') }]}
              style={{ flex: '1 1 160px' }}
            >
              <InputNumber
                min={1}
                max={36}
                precision={0}
                placeholder={s('pkg.valid_months_ph', { n: DEFAULT_VALID_MONTHS })}
                style={{ width: '100%' }}
              />
            </Form.Item>
          )}
        </Flex>
        <Form.Item
          name="price"
          label={s('pkg.price')}
          rules={[
            {
              validator: (_, v: string | undefined) => {
                const fen = yuanToFen(v ?? '');
                return fen !== null && fen >= 1 && fen <= 10_000_000 ? Promise.resolve() : Promise.reject(new Error(s('sign.price_invalid')));
              },
            },
          ]}
        >
          <MoneyInput />
        </Form.Item>
        <Form.Item name="includes" label={s('pkg.includes')}>
          <Checkbox.Group options={PACKAGE_INCLUDES.map((i) => ({ value: i, label: s(`inc.${i}`) }))} />
        </Form.Item>
        <Form.Item name="description" label={s('pkg.description')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
