import { Card, Grid, Tabs, Typography } from 'antd';
import { SmsMessagesTable, SmsUsageTable } from './sms-tables';
import { smsStrings } from './strings';

/** /principal_sms 短信记录: the admin's own school's texts per day and the texts themselves (the API keeps it to their school). */
export default function SchoolSms() {
  const s = smsStrings.use();
  const phone = !Grid.useBreakpoint().md;
  return (
    <Card styles={phone ? { body: { padding: 12 } } : undefined}>
      <Typography.Paragraph type="secondary">{s('school.hint')}</Typography.Paragraph>
      <Tabs
        items={[
          { key: 'messages', label: s('school.messages'), children: <SmsMessagesTable /> },
          { key: 'usage', label: s('school.usage'), children: <SmsUsageTable /> },
        ]}
      />
    </Card>
  );
}
