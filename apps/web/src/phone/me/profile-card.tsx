import Avatar from 'antd-mobile/es/components/avatar';
import List from 'antd-mobile/es/components/list';

interface Who {
  nickname?: string;
  avatar_text?: string | null;
  school?: { name: string } | null;
}

/** Who is signed in: the avatar's letter, the nickname and the school (我的 and 账号设置). */
export function ProfileCard({ who }: { who: Who | null | undefined }) {
  return (
    <List className="m-section">
      <List.Item
        prefix={
          <Avatar
            src=""
            style={{ '--size': '48px', '--border-radius': '24px' }}
            fallback={<span className="m-avatar">{who?.avatar_text ?? who?.nickname?.slice(0, 1)}</span>}
          />
        }
        description={who?.school?.name ?? ''}
      >
        {who?.nickname}
      </List.Item>
    </List>
  );
}
