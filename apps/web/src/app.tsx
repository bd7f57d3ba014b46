import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { StatusPage } from './status-page';

/** The web app's root. The routed shell (every screen of the spec) plugs in here. */
export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntApp>
        <StatusPage />
      </AntApp>
    </ConfigProvider>
  );
}
