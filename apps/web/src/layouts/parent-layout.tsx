import { ParentConsentGate } from '../areas/privacy/consent-gate';
import { ConsoleLayout } from './console-layout';

export default function ParentLayout() {
  return (
    <>
      {/* a guardian who has not accepted the current documents goes to the consent screen first (issue 37) */}
      <ParentConsentGate />
      <ConsoleLayout area="parent" brand={{ zh: '家长中心', en: 'Parents' }} />
    </>
  );
}
