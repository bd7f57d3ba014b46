import type { ParentChild } from '@wantuo/shared';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useConversationLive } from '../../areas/conversations/live';
import { conversationsStrings } from '../../areas/conversations/strings';
import { useParentChildren } from '../../areas/parent/children';
import { useChosenChild } from '../../areas/parent/chosen-child';
import { PhoneChildSwitcher } from '../parent/child-switcher';
import { PhonePage, QueryView } from '../ui/page';
import { ConversationView } from './chat';

/**
 * /m/parent_chat?student= (消息 → 和老师聊天): the chosen child's conversation with the school (the switcher when the
 * guardian has several children; a link naming the child chooses it).
 */
export default function ParentChatPhone() {
  const s = conversationsStrings.use();
  const q = useParentChildren();
  useConversationLive();
  return (
    <PhonePage>
      <QueryView query={q} isEmpty={(d) => d.list.length === 0} empty={s('chat.no_children')}>
        {(d) => <ChildChat kids={d.list} />}
      </QueryView>
    </PhonePage>
  );
}

function ChildChat({ kids }: { kids: ParentChild[] }) {
  const [params, setParams] = useSearchParams();
  const [child, choose] = useChosenChild(kids);
  const asked = kids.find((k) => k.id === Number(params.get('student')));
  useEffect(() => {
    if (asked && asked.id !== child?.id) choose(asked.id);
  }, [asked, child, choose]);
  const current = asked ?? child ?? kids[0];
  return (
    <>
      <PhoneChildSwitcher
        kids={kids}
        value={current.id}
        onChange={(id) => {
          choose(id);
          setParams({ student: String(id) }, { replace: true });
        }}
      />
      <ConversationView key={current.id} studentId={current.id} side="family" />
    </>
  );
}
