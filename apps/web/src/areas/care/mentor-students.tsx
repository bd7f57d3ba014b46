import { MyClass } from './my-class';

/** /AMentorStudent: the tutored students of the head teacher's class with their tutor. */
export default function MentorStudents() {
  return <MyClass mode="mentor" title="care.mentor_students" />;
}
