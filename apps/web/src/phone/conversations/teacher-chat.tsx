import { useSearchParams } from 'react-router';
import { useConversationLive } from '../../areas/conversations/live';
import { useConversation } from '../../areas/conversations/model';
import { conversationsStrings } from '../../areas/conversations/strings';
import { PhonePage } from '../ui/page';
import { PhoneEmpty } from '../ui/states';
import { ConversationView } from './chat';

/** /m/teacher_chat?student=: one child's conversation from the school's side (the staff's quick replies, no 紧急). */
export default function TeacherChatPhone() {
  const s = conversationsStrings.use();
  const [params] = useSearchParams();
  const id = Number(params.get('student'));
  useConversationLive();
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <PhonePage>
        <PhoneEmpty description={s('list.empty')} />
      </PhonePage>
    );
  }
  return <StaffChat studentId={id} />;
}

function StaffChat({ studentId }: { studentId: number }) {
  const s = conversationsStrings.use();
  const { head } = useConversation(studentId);
  const title = head
    ? `${s('chat.with_family', { name: head.student.name })}${head.student.class_name ? ` · ${head.student.class_name}` : ''}`
    : undefined;
  return (
    <PhonePage title={title}>
      <ConversationView studentId={studentId} side="school" />
    </PhonePage>
  );
}
