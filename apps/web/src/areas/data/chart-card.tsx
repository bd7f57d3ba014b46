import { DownloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { App, Button, Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { GetInput } from '@wantuo/shared';
import { download, type FileAction } from '../../api/download';
import { EmptyState, LoadError, Loading } from '../../components/states';
import { EChart, type ChartOption } from './echart';
import { dataStrings } from './strings';

/**
 * One chart of the data centre: a card with its title and an export button (the API's .xlsx of the same numbers),
 * the loading, error and empty states of its query, then the chart and a summary line.
 */
export function ChartCard<K extends FileAction>({
  title,
  query,
  empty,
  emptyText,
  option,
  summary,
  exportAs,
  before,
  height,
}: {
  title: string;
  query: UseQueryResult<unknown>;
  /** nothing to draw in the answer */
  empty: boolean;
  emptyText: string;
  option: ChartOption;
  summary: ReactNode;
  /** the export action, its parameters and the file name */
  exportAs: { action: K; params: GetInput<K>; filename: string };
  /** controls above the chart (a class filter) */
  before?: ReactNode;
  height?: number;
}) {
  const s = dataStrings.use();
  const { message } = App.useApp();
  const exportIt = async () => {
    try {
      await download(exportAs.action, exportAs.params, exportAs.filename);
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  return (
    <Card
      size="small"
      title={title}
      extra={
        <Button size="small" icon={<DownloadOutlined />} onClick={exportIt} disabled={!query.data}>
          {s('export')}
        </Button>
      }
    >
      {before}
      {query.isLoading ? (
        <Loading />
      ) : query.isError ? (
        <LoadError onRetry={() => query.refetch()} />
      ) : empty ? (
        <EmptyState description={emptyText} />
      ) : (
        <>
          <EChart option={option} label={title} height={height} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
            {summary}
          </Typography.Paragraph>
        </>
      )}
    </Card>
  );
}
