import { MyClass } from './my-class';

/** /TeacherClass: the teacher's care class and its students. */
export default function TeacherClass() {
  return <MyClass mode="view" title="care.my_class" />;
}
