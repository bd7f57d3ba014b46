import { Card, Segmented } from 'antd';
import type { ParentChild } from '@wantuo/shared';
import type { ReactNode } from 'react';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { useParentChildren } from './children';

/**
 * The parent pages' first step: the guardian's children (parentChildren), with the loading, error and no-children
 * states; `children` renders the page for the list (never empty). The one way the parent pages load who they are about.
 */
export function ParentChildren({ empty, children }: { empty: string; children: (kids: ParentChild[]) => ReactNode }) {
  const q = useParentChildren();
  const kids = q.data?.list ?? [];
  if (q.isLoading) return <Loading />;
  if (q.isError) return <LoadError onRetry={() => void q.refetch()} />;
  if (kids.length === 0) {
    return (
      <Card>
        <EmptyState description={empty} />
      </Card>
    );
  }
  return <>{children(kids)}</>;
}

/** The parent pages' child picker: one segment per child, shown only when the guardian has more than one. */
export function ChildSwitcher({ kids, value, onChange }: { kids: ParentChild[]; value: number | undefined; onChange: (id: number) => void }) {
  if (kids.length < 2) return null;
  return (
    <Segmented block size="large" value={value} onChange={(v) => onChange(Number(v))} options={kids.map((k) => ({ value: k.id, label: k.name }))} />
  );
}
