import { PaperClipOutlined } from '@ant-design/icons';
import { Flex, Tag, Typography } from 'antd';
import type { NoticeAttachment, NoticeAudience, NoticeItem } from '@wantuo/shared';
import { noticesStrings } from './strings';
import './notices.css';

export function AudienceTag({ audience }: { audience: NoticeAudience }) {
  const s = noticesStrings.use();
  return <Tag color={audience === 'guardians' ? 'blue' : audience === 'staff' ? 'purple' : 'cyan'}>{s(`aud.${audience}`)}</Tag>;
}

export function ScopeText({ n }: { n: Pick<NoticeItem, 'scope' | 'class_names'> }) {
  const s = noticesStrings.use();
  return <>{n.scope === 'school' ? s('school') : n.class_names.join('、')}</>;
}

/** A notice's body: its HTML (sanitised by the API when it was published) and its attachments. */
export function NoticeBody({ html, attachments }: { html: string; attachments: NoticeAttachment[] }) {
  return (
    <>
      {/* the API stored this HTML through sanitize-html (no scripts, handlers or unsafe links) */}
      <div className="notice-body" dangerouslySetInnerHTML={{ __html: html }} />
      {attachments.length > 0 && (
        <Flex vertical gap={6} style={{ marginTop: 12 }}>
          {attachments.map((a) => (
            <Typography.Link key={a.id} href={a.url} target="_blank" rel="noopener noreferrer">
              <PaperClipOutlined /> {a.name} <Typography.Text type="secondary">({Math.max(1, Math.round(a.size / 1024))} KB)</Typography.Text>
            </Typography.Link>
          ))}
        </Flex>
      )}
    </>
  );
}
