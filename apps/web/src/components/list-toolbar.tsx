import { DownloadOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import type { GetInput } from '@wantuo/shared';
import { download, type FileAction } from '../api/download';
import { defineStrings } from '../i18n/strings';

const strings = defineStrings({
  export: { zh: '导出', en: 'Export' },
  search: { zh: '搜索', en: 'Search' },
});

export interface ListSearch {
  placeholder?: string;
  /** the keyword the list is filtered by (kept by the page, so it survives a tab switch) */
  defaultValue?: string;
  onSearch: (keyword: string) => void;
  maxLength?: number;
  width?: number;
}

export interface ListExport<K extends FileAction> {
  action: K;
  params: GetInput<K>;
  filename: string;
  label?: string;
}

/**
 * The toolbar of a list page: a search box, the page's filters, its actions and an export of what the filters show.
 * Wraps on a 375 px phone. The export button shows its progress and stays usable after a failure (the request layer
 * shows the error).
 */
export function ListToolbar<K extends FileAction>({
  search,
  filters,
  actions,
  exportAs,
}: {
  search?: ListSearch;
  filters?: ReactNode;
  actions?: ReactNode;
  exportAs?: ListExport<K>;
}) {
  const s = strings.use();
  const [exporting, setExporting] = useState(false);
  const runExport = async () => {
    if (!exportAs) return;
    setExporting(true);
    try {
      await download(exportAs.action, exportAs.params, exportAs.filename);
    } catch {
      // shown by the request wrapper
    } finally {
      setExporting(false);
    }
  };
  return (
    <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
      <Space wrap>
        {search && (
          <Input.Search
            allowClear
            defaultValue={search.defaultValue}
            placeholder={search.placeholder ?? s('search')}
            maxLength={search.maxLength ?? 32}
            style={{ width: search.width ?? 240, maxWidth: '100%' }}
            onSearch={(v) => search.onSearch(v.trim())}
          />
        )}
        {filters}
      </Space>
      <Space wrap>
        {actions}
        {exportAs && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void runExport()}>
            {exportAs.label ?? s('export')}
          </Button>
        )}
      </Space>
    </Space>
  );
}
