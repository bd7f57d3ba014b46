import { Tabs } from 'antd';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Loading } from '../../components/states';
import { teachingStrings } from './strings';

const CareClassList = lazy(() => import('../care/class-list'));
const TeachingClassList = lazy(() => import('./teaching-list'));
const SchoolCalendar = lazy(() => import('./calendar'));

type Tab = 'care' | 'teaching' | 'calendar';
const TABS: Tab[] = ['care', 'teaching', 'calendar'];

/** /principal_class: care classes (the care area's list, as it was), teaching classes and the school calendar; ?tab= keeps the tab. */
export default function ClassTabs() {
  const s = teachingStrings.use();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'care';
  const body = (node: React.ReactNode) => <Suspense fallback={<Loading />}>{node}</Suspense>;
  return (
    <Tabs
      type="card"
      activeKey={tab}
      onChange={(k) => setParams(k === 'care' ? {} : { tab: k }, { replace: true })}
      items={[
        { key: 'care', label: s('tab.care'), children: body(<CareClassList />) },
        { key: 'teaching', label: s('tab.teaching'), children: body(<TeachingClassList />) },
        { key: 'calendar', label: s('tab.calendar'), children: body(<SchoolCalendar />) },
      ]}
    />
  );
}
