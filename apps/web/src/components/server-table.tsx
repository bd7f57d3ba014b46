import type { UseQueryResult } from '@tanstack/react-query';
import { Table } from 'antd';
import type { TablePaginationConfig, TableProps } from 'antd';
import type { Page } from '@wantuo/shared';
import { LoadError } from './states';

type ServerTableProps<T> = Omit<TableProps<T>, 'dataSource' | 'loading' | 'pagination'> & {
  query: UseQueryResult<Page<T>>;
  page: number;
  onPage: (page: number) => void;
  pageSize: number;
  /** Extra pagination options (e.g. `size: 'small'`, `hideOnSinglePage`); the paging itself is the server's. */
  pagination?: Omit<TablePaginationConfig, 'current' | 'pageSize' | 'total' | 'onChange' | 'showSizeChanger'>;
};

/**
 * A table of one server page: `query` is the react-query result of a `Page<T>` fetch for `page`. On error it shows
 * LoadError with a retry; otherwise the rows of the page, the loading state and server pagination (fixed `pageSize`,
 * no size changer, `onPage` on a page change). Every other antd Table prop passes through; `rowKey` defaults to 'id'.
 */
export function ServerTable<T extends object>({ query, page, onPage, pageSize, pagination, rowKey = 'id', ...rest }: ServerTableProps<T>) {
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  return (
    <Table<T>
      {...rest}
      rowKey={rowKey}
      loading={query.isLoading}
      dataSource={query.data?.list}
      pagination={{ ...pagination, current: page, pageSize, total: query.data?.total, onChange: onPage, showSizeChanger: false }}
    />
  );
}
